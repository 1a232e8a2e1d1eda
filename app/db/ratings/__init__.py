"""Per-game records and skill ratings (openskill's Plackett-Luce model: 2 to 6 seats, ties).

``model`` is the maths, ``writes`` counts and rates matches as they finish, ``reads`` serves
the player pages, ``rebuild`` does it all again from the finished matches.

A finished match is counted and rated in the transaction that stores its end
(:func:`writes.record_matches`). A failure there is logged, and the transaction runs again
without them (:func:`writes.rated_or_not`): the match stays uncounted and unrated, and the
move is never lost.

* Each player's record per game (``player_games``: played, won, lost, drawn) counts every
  finished match they sat in, solo ones too; a draw is a win shared with another seat.

* Every player starts at the model's default, mu 25, sigma 25/3: ordinal (mu - 3 sigma) 0.
  The ordinal is what is shown and ranked; the trend is its change in the latest rated match.
* Places come from the outcome: the winners share first place, the others follow by score,
  higher first (every engine reports "higher is better"; ABspecken reports minus its
  penalties), equal scores share a place.
* Bots have fixed, published ratings per level (:data:`model.BOT_SKILLS`); they take part
  in the update as opponents but never change. Matches with bots are marked (``matches.has_bots``).
* A one-seat (solo) match, or one without a human, changes nothing.

``python -m app.db.ratings rebuild`` recomputes every record and rating from the finished
matches, in the order they finished (after changing a constant of ``model``, or to rate matches that
finished before migration 0003).
"""
