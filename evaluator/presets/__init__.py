"""The preset rules files (one TOML file a variant), installed with the package."""
