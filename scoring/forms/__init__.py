"""The score sheet's forms: ``entry`` (what every entry form shares), ``hand`` (the tap form of a
Schafkopf hand, events, the JSON fallback), ``families`` (the tap forms of Doppelkopf and Saukopf),
``table_rules`` (the fields the table's state adds), ``evening`` (evenings, tables, reasons, rules)."""
