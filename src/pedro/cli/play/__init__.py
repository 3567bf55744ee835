"""The terminal game of ``pedro play``, one job a module: who sits where (``seats``), reading
the human's answers (``answers``), telling the table what happens (``narration``), the game
loop (``game``) and where its record goes (``saving``); the command itself is ``pedro.cli.play_cmd``.
"""
