"""Evaluation of the advisor against a golden Q&A set: scoring, running, reports.

The golden set and the reports live in eval/ of a checkout (or wherever --golden and --reports
point); this package holds the code, so an installed `gpu-advisor eval` needs no checkout on
sys.path.
"""
