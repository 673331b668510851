"""Reports: statistics with confidence intervals and their renderings."""
