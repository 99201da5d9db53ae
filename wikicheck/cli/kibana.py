"""``wikicheck kibana-setup``: load the data views, saved search and dashboard into Kibana."""

from __future__ import annotations

import click

from wikicheck import kibana as kibana_api
from wikicheck.cli.common import console, handle_errors, json_option, wants_json, write_json


@click.command("kibana-setup")
@click.option(
    "--kibana",
    "url",
    envvar="WIKICHECK_KIBANA_URL",
    default="http://localhost:5601",
    show_default=True,
    help="Kibana URL (env WIKICHECK_KIBANA_URL).",
)
@click.option(
    "--index-prefix",
    default="wikicheck",
    show_default=True,
    help="The Elasticsearch store's index prefix (data views read PREFIX-elements).",
)
@click.option("--space", default=None, help="Kibana space id (default space if omitted).")
@click.option(
    "--objects",
    type=click.Path(exists=True, dir_okay=False),
    default=None,
    help="Another saved-objects ndjson file (default: kibana/saved_objects.ndjson).",
)
@click.option(
    "--wait",
    "wait_s",
    default=0.0,
    show_default=True,
    type=click.FloatRange(0),
    help="Seconds to wait for Kibana to come up before importing.",
)
@json_option
@handle_errors
def kibana_setup(url, index_prefix, space, objects, wait_s, as_json) -> None:  # fmt: skip
    """Create the wikicheck data views, saved search and dashboard in Kibana.

    Idempotent: objects keep fixed ids and are overwritten. Exit status 1 if Kibana
    rejected any object (each one is listed with the reason).

    \b
    Example:
      docker compose up -d
      wikicheck kibana-setup --kibana http://localhost:5601 --wait 120
    """

    loaded = kibana_api.load_saved_objects(objects, index_prefix=index_prefix)
    if wait_s:
        kibana_api.wait_for_kibana(url, timeout=wait_s)
    result = kibana_api.setup_kibana(url, objects=loaded, space=space)
    if wants_json(as_json):
        write_json(result.to_dict())
    else:
        from rich.text import Text

        for type_, id_, title in result.objects:
            console().print(Text.assemble(("ok", "green"), f" {type_:<14} {id_:<34} {title}"))
        console().print(f"{result.success_count} objects imported into {result.url}")
        console().print("Open Discover: " + result.url + "/app/discover")
    if not result.ok:
        raise click.ClickException("Kibana rejected: " + "; ".join(result.errors))
