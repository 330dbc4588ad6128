"""`python -m rulewright` runs the command line."""
from rulewright.cli.main import main

main()
