"""How a player is told it is their turn: Web Push and mail, sent as due jobs.

:class:`~app.notify.notifier.Notifier` schedules, inside the caller's transaction, a job per
enabled channel for a :class:`~app.rooms.ports.TurnNotice`; the handlers of
:mod:`app.notify.push` and :mod:`app.notify.mail` send them, once, from any process.
"""
