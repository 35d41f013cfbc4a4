"""The one precision policy: how precise an input is, which folded tolerance it supports, which gaps are genuine."""
