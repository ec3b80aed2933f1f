"""The presets: one module per family; ``scoring.engine.registry`` lists them by name."""
