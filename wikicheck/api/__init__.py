"""The HTTP API (FastAPI): a leaf on top of ``indexer``, ``retriever`` and ``verifier``.

Holds :mod:`~wikicheck.api.app` (the app factory, routes, limits), :mod:`~wikicheck.api.models`
(request/response schemas with their limits), :mod:`~wikicheck.api.engine` (the loaded services,
batching and evidence shaping), :mod:`~wikicheck.api.middleware` (body-size limit, busy guard,
error handlers) and :mod:`~wikicheck.api.auth` (the optional bearer key). The page for people at ``/`` is :mod:`wikicheck.web`, mounted by the app.

May import the foundation, ``indexer``, ``retriever``, ``verifier`` and :mod:`wikicheck.web`; nothing but
:mod:`wikicheck.cli` imports it (checked by the layers contract in ``.importlinter``).
"""

from wikicheck.api.app import Limits, Services, create_app

__all__ = ["Limits", "Services", "create_app"]
