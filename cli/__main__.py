"""`python -m rulewright.cli` runs the command line."""
from rulewright.cli.main import main

main()
