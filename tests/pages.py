"""Hand-made FEVEROUS pages shared by the foundation tests (not real data)."""

from wikicheck.model import Element

T = "Test Page (2001 film)"


def cell_element(
    page: str, r: int, c: int, text: str, rh: list[str] = (), ch: list[str] = ()
) -> Element:
    """An extracted data cell of table 0 with its row (``rh``) and column (``ch``) header texts."""
    return Element(
        id=f"{page}_cell_0_{r}_{c}",
        page=page,
        type="cell",
        text=text,
        position=r * 10 + c,
        table=0,
        row=r,
        col=c,
        row_header_texts=list(rh),
        col_header_texts=list(ch),
    )


def cell(cid, value, header=False, rs=1, cs=1):
    return {
        "id": cid,
        "value": value,
        "is_header": header,
        "row_span": str(rs),
        "column_span": str(cs),
    }


HAND_PAGE = {
    "title": T,
    "order": [
        "sentence_0",
        "table_0",
        "section_0",
        "sentence_1",
        "section_1",
        "section_2",
        "sentence_2",
        "section_3",
        "sentence_3",
        "table_1",
        "table_2",
        "section_4",
        "list_0",
    ],
    "sentence_0": "The [[Test_Page|test page]] is a [[Film]] made in [[France|FR]].",
    # Infobox: a title header spanning both columns, and a spanning sub-header.
    "table_0": {
        "type": "infobox",
        "table": [
            [cell("header_cell_0_0_0", "Test Page", True, cs=2)],
            [cell("header_cell_0_1_0", "Born", True), cell("cell_0_1_1", "1900")],
            [cell("header_cell_0_2_0", "Location", True, cs=2)],
            [cell("header_cell_0_3_0", "Country", True), cell("cell_0_3_1", "[[France|FR]]")],
        ],
    },
    "section_0": {"value": "History", "level": 2},
    "sentence_1": "History starts here.",
    "section_1": {"value": "Early", "level": 3},
    "section_2": {"value": "Origins", "level": 4},
    "sentence_2": "Deep inside.",
    # A level-3 section after a level-4 one: the official walk would lose "History" here.
    "section_3": {"value": "Late", "level": 3},
    "sentence_3": "Later on.",
    # Multi-level column headers and row headers in the first column.
    "table_1": {
        "type": "wikitable",
        "caption": "Season [[Results_page|results]]",
        "table": [
            [
                cell("header_cell_1_0_0", "Year", True, rs=2),
                cell("header_cell_1_0_1", "Results", True, cs=2),
            ],
            [cell("header_cell_1_1_0", "Wins", True), cell("header_cell_1_1_1", "Losses", True)],
            [
                cell("header_cell_1_2_0", "2001", True),
                cell("cell_1_2_1", "10"),
                cell("cell_1_2_2", "5"),
            ],
            [
                cell("header_cell_1_3_0", "2002", True),
                cell("cell_1_3_1", "8"),
                cell("cell_1_3_2", "7"),
            ],
        ],
    },
    # Header, data, header, data in one row: the walk stops at the first data cell.
    "table_2": {
        "type": "wikitable",
        "table": [
            [
                cell("header_cell_2_0_0", "Name", True),
                cell("cell_2_0_1", "Bob"),
                cell("header_cell_2_0_2", "Age", True),
                cell("cell_2_0_3", "30"),
            ]
        ],
    },
    "section_4": {"value": "See also", "level": 2},
    "list_0": {
        "type": "unordered_list",
        "list": [
            {"id": "item_0_0", "value": "Fruits", "level": 0},
            {"id": "item_0_1", "value": "[[Apple]]", "level": 1, "type": "ordered_list"},
            {"id": "item_0_2", "value": "Gala", "level": 2},
            {"id": "item_0_3", "value": "Vegetables", "level": 0},
        ],
    },
}


def table_elements(title: str, rows: list[list[str]], *, caption: str | None = None) -> list:
    """A headed table (first row = headers) as the converters and ``extract_page`` make it."""
    from wikicheck.indexer.convert.common import Cell, PageBuilder
    from wikicheck.indexer.extract import extract_page

    page = PageBuilder(title)
    page.table([[Cell(v, is_header=r == 0) for v in row] for r, row in enumerate(rows)], caption)
    return extract_page(page.build())


def infobox_page(title: str, pairs: list[tuple[str, str]]) -> dict:
    """A page of one infobox (title header row, then key/value rows) as the InfoTabs converter
    makes it."""
    from wikicheck.indexer.convert.common import Cell, PageBuilder

    page = PageBuilder(title)
    rows = [[Cell(title, is_header=True, column_span=2)]]
    rows += [[Cell(k, is_header=True), Cell(v)] for k, v in pairs]
    page.table(rows, type="infobox")
    return page.build()


def infobox_elements(title: str, pairs: list[tuple[str, str]]) -> list:
    """The elements of :func:`infobox_page`."""
    from wikicheck.indexer.extract import extract_page

    return extract_page(infobox_page(title, pairs))
