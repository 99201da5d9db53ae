"""Command implementations for :mod:`wikicheck.cli` (one module per area) and shared options."""
