"""Integrations with other tools, each behind an optional extra and imported only when used:
:mod:`foldbench.integrations.inspect_ai` (``foldbench[inspect]``) and :mod:`foldbench.integrations.ray`
(``foldbench[ray]``)."""
