"""``pedro serve``: the browser game server, one package per part a maintainer looks for.

From the bottom up (a package imports only those before it; ``tests/test_layers.py`` checks):
``settings`` (what an operator sets), ``storage`` (the database), ``sync`` (commits off the loop,
several processes), ``http`` (refusals, bodies, the site), ``tables`` (the tables being played),
``offline`` (the browser app that plays with no server, served at ``/play/``), ``finished``
(records and replays), ``profiles`` (profiles and ratings), ``reviews`` (reviews and hints),
``tournaments`` (duplicate tournaments), and ``app``, which puts them together.
"""
