"""The presets; importing this package registers every one of them."""
