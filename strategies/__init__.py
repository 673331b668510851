"""Strategies: the compiled built-ins and the registry that maps names to ids."""
