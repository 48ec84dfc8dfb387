"""Serve guards with the Guardrails server, sending only validated text.

Needs the ``server`` extra (``pip install "guardrails-ai-chunkwise[server]"``,
which brings guardrails-api); nothing imports guardrails-api until it is used,
and nothing in chunkers, adapters or validators imports this package.

* ``chunkwise serve --config config.py`` runs guardrails-api's application
  (:func:`~.app.create_app`) with uvicorn.
* ``guardrails start --config config.py`` gets the same when ``config.py``
  calls :func:`serve_validated`.

Either way the OpenAI-compatible endpoint
``/guards/{name}/openai/v1/chat/completions`` answers with validated text only
(see :mod:`~.route` and :mod:`~.completions`).
"""

from __future__ import annotations

__all__ = ["serve_validated"]


def serve_validated() -> None:
    """Make guardrails-api's OpenAI-compatible endpoint release validated text only.

    Calls ``guardrails_ai.chunkwise.enable_validated_streaming()`` (when this
    version has it) and replaces the endpoint on guardrails-api's router.
    Idempotent; call it before the app is created, e.g. at the top of the
    config file ``guardrails start`` loads.
    """
    import guardrails_ai.chunkwise as chunkwise

    enable = getattr(chunkwise, "enable_validated_streaming", None)
    if callable(enable):
        enable()
    from .logs import quiet_detach_errors

    try:
        from .route import install
    except ModuleNotFoundError as error:
        raise ModuleNotFoundError(
            f"serve_validated needs guardrails-api ({error.name} is missing): "
            'pip install "guardrails-ai-chunkwise[server]"',
            name=error.name,
        ) from error
    quiet_detach_errors()
    install()
