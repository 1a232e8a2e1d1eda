"""What the tests share: servers, clients, waiting, whole matches, and the browser's steps.

Servers and clients, for the API, WebSocket and browser tests:
    server       real server processes (``python -m app``) on a free port and a fresh database
    clients      a guest over HTTP and its WebSocket to a room
    races        requests sent at once, to race room changes
    play         whole matches played over sockets, and bots' matches
Waiting:
    waiting      ``until``, ``play_until``, ``until_async``: poll with a deadline, never sleep
In the browser (tests/e2e/, whose conftest.py opens the pages):
    visitors     a visitor who has chosen a name
    table_steps  a room's steps: create it, sit, add a bot, start; the page's own API calls
    screen       the phone's first screen and the table's move log
    words        the words a page may show a player
    renderers    a game's renderer alone in a page, fed states by the test
"""
