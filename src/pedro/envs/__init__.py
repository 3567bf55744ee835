"""Learning environments over the engine: PettingZoo (``pedro.envs.pettingzoo``) and OpenSpiel.

``actions`` maps the engine's decisions to a small fixed action space and
``encoding`` turns an observation into a vector; both are shared by the
environments. The environment modules need the ``envs`` extra
(``pip install pedro[envs]``); these two need only numpy.
"""
