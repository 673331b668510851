"""Variant presets (TOML files shipped as package data)."""
