"""``python -m foldbench`` runs the command line."""

from foldbench.cli import main

main()
