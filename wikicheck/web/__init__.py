"""The page for people: ``GET /`` (claim -> verdict and evidence, search) and ``GET /view/{title}``.

Server-side Jinja2 templates, one stylesheet and a little plain JavaScript that calls the JSON
API (``/verify``, ``/retrieve``, ``/search``); no build step and nothing fetched from elsewhere,
so it works offline. Templates and static files are package data read through
``importlib.resources`` (a wheel install works from any directory). :data:`router` is included
into the FastAPI app by :func:`wikicheck.api.create_app`.
"""

from wikicheck.web.routes import router

__all__ = ["router"]
