"""Human baselines: a local web page that shows people the items a model gets and stores their answers in the run
store like a model's replies (model ``human``, one run per participant)."""

from foldbench.human.forms import AnswerForm, FormError, form_for
from foldbench.human.server import make_server, serve
from foldbench.human.session import HumanSession, participant_run

__all__ = ["AnswerForm", "FormError", "HumanSession", "form_for", "make_server", "participant_run", "serve"]
