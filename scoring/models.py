"""Evenings, tables, hands and the ledger; the models arrive with the scoring issues."""
