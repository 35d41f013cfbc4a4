"""Integrations with other tools, each behind an optional extra and imported only when used:
:mod:`foldbench.integrations.inspect_ai` (``foldbench[inspect]``) and :mod:`foldbench.integrations.ray`
(``foldbench[ray]``), whose executor and item source the command line hands to the harness and to dataset
generation (:func:`foldbench.integrations.executors.executor_for`)."""
