"""The origami engine that OrigamiBench's and OrigamiSpace's tasks and the environments share.

It sits on the crease compiler (:mod:`foldbench.crease`) and below both the tasks and the Gymnasium environments,
so neither needs the other:

* the sheet and its actions: :mod:`~foldbench.origami.actions` (crease actions read strictly),
  :mod:`~foldbench.origami.geometry` (checking and snapping a crease), :mod:`~foldbench.origami.sheet` (applying
  an action: the creases are kept only when the paper still folds flat), :mod:`~foldbench.origami.folded` (the
  folded state aligned to the paper);
* targets and scores: :mod:`~foldbench.origami.targets`, :mod:`~foldbench.origami.metrics` (GS, QE),
  :mod:`~foldbench.origami.similarity` (SS);
* pictures: :mod:`~foldbench.origami.pictures` (the synthesis pictures), :mod:`~foldbench.origami.flat_pattern`
  (a crease pattern drawn flat);
* the synthesis episode (:mod:`~foldbench.origami.episode`: steps, reward, observations) and scripted policies
  (:mod:`~foldbench.origami.policies`);
* OrigamiSpace's crease-pattern instances (:mod:`~foldbench.origami.instances`) and the reader of a generated
  FOLD reply (:mod:`~foldbench.origami.fold_reply`).
"""
