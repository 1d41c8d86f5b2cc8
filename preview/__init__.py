"""The designer's edit loop: ``pnp watch`` and ``pnp preview``.

``session`` builds the games again after every save (through the per-design
cache, so only what changed is rendered) and keeps what the last build gave,
or the data errors that stopped it; ``watch`` waits for saves of the sheets,
templates and manifests (with ``watchfiles``) and hands them to a session;
``server`` serves a local page (127.0.0.1 only, Starlette on uvicorn) that
shows every card and refreshes itself after each build through server-sent
events.  Imports ``generator`` and ``model``, never ``validator`` or ``pnp``.
"""
