"""The evidence checks of a verdict: coverage of the claim's names and words, the number check,
and what they do to a prediction row in 3-way and 2-way runs (hand-made elements)."""

from __future__ import annotations

import pytest

from tests.pages import cell_element, infobox_elements
from wikicheck.model import NEI, REFUTES, SUPPORTS, Element
from wikicheck.verifier.sufficiency import (
    apply_evidence_checks,
    check_evidence,
    check_numbers,
    checked_answer,
    checked_probabilities,
    claim_names,
)


def _sentence(page: str, text: str, n: int = 0) -> Element:
    return Element(id=f"{page}_sentence_{n}", page=page, type="sentence", text=text, position=n)


DANUBE = "The Danube flows through Vienna and Budapest."
OFF_TOPIC = [
    _sentence("1500 metres", "The 1500 metres was run in Budapest in 1998."),
    _sentence("Aare", "The Aare flows through Bern.", 1),
]
ON_TOPIC = [_sentence("Danube", "The Danube flows through Vienna, Bratislava and Budapest.")]


def test_claim_names_are_capitalised_runs_without_sentence_openers():
    assert claim_names(DANUBE) == ["Danube", "Vienna", "Budapest"]
    assert claim_names("In 1990 the Conant Brook Dam's spillway was cut.") == ["Conant Brook Dam"]


def test_evidence_that_leaves_the_claims_names_uncovered_is_insufficient():
    off = check_evidence(DANUBE, OFF_TOPIC)
    assert not off.sufficient and {"Danube", "Vienna"} <= set(off.uncovered)
    on = check_evidence(DANUBE, ON_TOPIC)
    assert on.sufficient and on.uncovered == []
    assert on.score > off.score
    assert not check_evidence(DANUBE, []).sufficient


def test_accents_and_unicode_forms_do_not_hide_a_name():
    decomposed = "Antonie Frederik Zu\u0308rcher was married in Amsterdam."
    ev = [_sentence("Antonie Frederik Zürcher", "Antonie Frederik Zürcher married in Amsterdam.")]
    assert check_evidence(decomposed, ev).uncovered == []


def test_a_number_given_differently_for_the_same_thing_conflicts():
    cells = infobox_elements("Aare", [("Source elevation", "1,940 m (6,365 ft)"),
                                      ("Length", "291.5 km (181.1 mi)")])  # fmt: skip
    check = check_numbers("The Aare's source is at an elevation of 3,500 metres.", cells)
    assert check.conflicts and check.conflicts[0]["claimed"] == "3,500 metres"
    assert check_numbers("The Aare is 181.1 miles long.", cells).matched == ["181.1 miles"]
    # a value on a page the claim does not name, for another thing, is not a conflict
    other = [_sentence("Rhine", "The Rhine is 1,230 km long.")]
    assert check_numbers("The Aare is 295 km long.", other).unstated == ["295 km"]


def test_a_comparative_bounds_the_value_and_a_multiplier_states_none():
    cells = infobox_elements("Hoboken", [("Area", "2.011 sq mi (5.21 km2)"),
                                         ("Running time", "104 minutes")])  # fmt: skip
    check = check_numbers("Hoboken is smaller than 2.5 square miles.", cells)
    assert check.matched == ["2.5 square miles"] and not check.conflicts
    assert check_numbers("Hoboken is larger than 2.5 square miles.", cells).conflicts
    check = check_numbers("Hoboken's budget was less than 4 times its box office take.", cells)
    assert not check.conflicts and not check.matched


def test_numbers_inside_names_are_not_values():
    ev = [_sentence("Apollo 11", "Apollo 11 landed in 1969.")]
    check = check_numbers("Apollo 11 landed on the Moon in 1969.", ev)
    assert check.matched == ["1969"] and not check.conflicts and not check.unstated


def test_rows_three_way_become_nei_two_way_keep_the_label_and_say_so():
    row = {"predicted_label": REFUTES}
    apply_evidence_checks(row, DANUBE, OFF_TOPIC, labels=3)
    assert row["predicted_label"] == NEI and row["label_before_checks"] == REFUTES
    assert row["sufficient"] is False
    row2 = {"predicted_label": REFUTES}
    apply_evidence_checks(row2, DANUBE, OFF_TOPIC, labels=2)
    assert row2["predicted_label"] == REFUTES and row2["sufficient"] is False
    # gold evidence: the coverage check does not overrule the model
    row3 = {"predicted_label": REFUTES}
    apply_evidence_checks(row3, DANUBE, OFF_TOPIC, labels=3, oracle=True)
    assert row3["predicted_label"] == REFUTES


def test_a_number_conflict_turns_supports_into_refutes_in_both_settings():
    ev = [_sentence("Brokeback Mountain", "Brokeback Mountain was released in 2005.")]
    for labels in (2, 3):
        row = {"predicted_label": SUPPORTS}
        apply_evidence_checks(row, "Brokeback Mountain was released in 2015.", ev, labels=labels)
        assert row["predicted_label"] == REFUTES, labels


def test_shown_probabilities_describe_the_answer_the_checks_gave():
    """ "NOT ENOUGH INFO" beside "REFUTES 0.88" would not mean what it says: once the checks change
    a label, ``probabilities`` are those of the answer given and the model's stay beside them."""
    model = {SUPPORTS: 0.02, REFUTES: 0.88, NEI: 0.10}
    row = {"predicted_label": REFUTES, "probabilities": dict(model)}
    check = apply_evidence_checks(row, DANUBE, OFF_TOPIC, labels=3)
    s = check.score
    assert row["predicted_label"] == NEI and row["model_probabilities"] == model
    assert row["probabilities"][NEI] == pytest.approx(1 - s + s * 0.10, abs=1e-6)
    assert row["probabilities"][REFUTES] == pytest.approx(s * 0.88, abs=1e-6)
    assert sum(row["probabilities"].values()) == pytest.approx(1.0, abs=1e-5)
    assert max(row["probabilities"], key=row["probabilities"].get) == NEI
    # a number conflict: the model's SUPPORTS mass becomes REFUTES mass
    ev = [_sentence("Brokeback Mountain", "Brokeback Mountain was released in 2005.")]
    row = {"predicted_label": SUPPORTS, "probabilities": {SUPPORTS: 0.9, REFUTES: 0.06, NEI: 0.04}}
    apply_evidence_checks(row, "Brokeback Mountain was released in 2015.", ev, labels=3)
    assert row["predicted_label"] == REFUTES
    assert row["probabilities"] == {SUPPORTS: 0.06, REFUTES: 0.9, NEI: 0.04}
    # a label the checks leave alone keeps the model's probabilities, and no copy is added
    row = {"predicted_label": REFUTES, "probabilities": dict(model)}
    apply_evidence_checks(row, DANUBE, OFF_TOPIC, labels=2)
    assert row["probabilities"] == model and "model_probabilities" not in row
    assert checked_probabilities({SUPPORTS: 0.5, REFUTES: 0.5}, 0.0) == {
        SUPPORTS: 0.0, REFUTES: 0.0, NEI: 1.0}  # fmt: skip


def test_insufficient_evidence_never_shows_another_label_above_not_enough_info(monkeypatch):
    from wikicheck.verifier import sufficiency

    # a score just under the threshold: by the checks alone SUPPORTS 0.52 would top NEI 0.47
    barely = sufficiency.Sufficiency(False, 0.54, {}, [], [], sufficiency.NumberCheck())
    monkeypatch.setattr(sufficiency, "check_evidence", lambda *a, **k: barely)
    model = {SUPPORTS: 0.96, REFUTES: 0.02, NEI: 0.02}
    assert checked_probabilities(model, 0.54)[SUPPORTS] > checked_probabilities(model, 0.54)[NEI]
    row = {"predicted_label": SUPPORTS, "probabilities": dict(model)}
    apply_evidence_checks(row, DANUBE, OFF_TOPIC, labels=3)
    shown = row["probabilities"]
    assert row["predicted_label"] == NEI and row["model_probabilities"] == model
    assert shown[NEI] == shown[SUPPORTS] == pytest.approx((0.5184 + 0.4708) / 2, abs=1e-6)
    assert sum(shown.values()) == pytest.approx(1.0, abs=3e-6)


def test_the_title_named_feature_and_the_topic_follow_the_one_title_rule():
    from wikicheck.verifier.sufficiency import features, sibling_evidence

    bears = "The 1927 Chicago Bears won 9 of 14 games."
    season = [_sentence("1927 Chicago Bears season", "The team won nine games.")]
    other = [_sentence("1928 Chicago Bears season", "The team won seven games.")]
    named = check_evidence(bears, season).features["title_named"]
    assert named == 1.0  # "season" is a generic title word; the words need not be a phrase
    assert check_evidence(bears, other).features["title_named"] == 0.0  # the year is whole
    assert sibling_evidence(bears, other) and not sibling_evidence(bears, season)
    boxes = "Safe deposit boxes are rented by banks."
    box = [_sentence("Safe deposit box", "A safe deposit box is a container.")]
    assert features(boxes, box, check_numbers(boxes, box))["title_named"] == 1.0  # a plural


def test_the_subjects_own_page_speaks_about_the_claim_however_little_it_covers():
    claim = "Chess960 normally takes over a day to finish a single game."
    page = infobox_elements("Chess960", [("Years active", "1996–present"),
                                         ("Players", "2"), ("Setup time", "none")])  # fmt: skip
    check = check_evidence(claim, page, similarity=0.2)
    assert check.score < 0.35 and check.subject_page and check.sufficient
    row = {"predicted_label": REFUTES}
    apply_evidence_checks(row, claim, page, labels=3, similarity=0.2)
    assert row["predicted_label"] == REFUTES and row["sufficiency"]["subject_page"]
    # another page of the same name stays a distractor, and so does a series' page for a claim
    # about one year's event
    assert not check_evidence(claim, infobox_elements("Chess", [("Players", "2")])).subject_page
    gp = [_sentence("British Grand Prix", "The British Grand Prix is held at Silverstone.")]
    sibling = check_evidence("The 2008 British Grand Prix was won by Lewis Hamilton.", gp)
    assert not sibling.subject_page
    named = check_evidence("British Grand Prix races were won by Lewis Hamilton.", gp)
    assert named.subject_page and named.sufficient


def test_a_month_or_a_lone_adjective_is_no_ground_for_a_number_conflict():
    claim = "5370 Taranis was discovered by French astronomer Alain Maury on September 2, 1986."
    # "French" and "September" are on pages of other things: a French sculptor's birth date
    # does not contradict the discovery
    other = [_sentence("Alain Gilles", "Alain Gilles, a French sculptor, was born on 5 May 1945 "
                                       "and died in September.")]  # fmt: skip
    check = check_numbers(claim, other)
    assert not check.conflicts and "September 2, 1986" in check.unstated
    own = [_sentence("5370 Taranis", "It was discovered by Alain Maury on 3 September 1986.")]
    assert check_numbers(claim, own).conflicts
    named = [_sentence("Alain Maury", "Alain Maury discovered it on 3 September 1986.")]
    assert check_numbers(claim, named).conflicts  # a name of two words is the claim's


def test_a_value_the_claim_itself_states_is_no_conflict_for_another_of_its_values():
    cells = infobox_elements("DSR-1", [("Accuracy", "100 m group"), ("Range", "300 m group")])
    claim = "In DSR-1, the ammunition has a 100 m group of 14 mm and a 300 m group of 55 mm."
    # the read cells hold the ranges but not the group sizes: unstated, not refuted
    check = check_numbers(claim, cells)
    assert not check.conflicts and check.unstated == ["14 mm", "55 mm"]
    assert check.matched == ["100 m", "300 m"]
    # a length the claim does not state elsewhere still refutes
    accuracy = [el for el in cells if el.text == "100 m group"]
    (conflict,) = check_numbers(
        "In DSR-1, the ammunition has a group of 14 mm.", accuracy
    ).conflicts
    assert (conflict["claimed"], conflict["found"]) == ("14 mm", "100 m")
    # a year is not excused: the other year the claim states, given for this event, refutes it
    ev = [_sentence("Xiao Sha", "Xiao Sha competed in the 2008 World Championships.")]
    claim = "Xiao Sha competed in the 2007 World Championships and the 2008 World Cup."
    (conflict,) = check_numbers(claim, ev).conflicts
    assert (conflict["claimed"], conflict["found"]) == ("2007", "2008")


def test_a_title_named_in_any_order_needs_three_of_its_words():
    from wikicheck.common.text import names_title

    claim = "Duke Carlisle was picked by the Green Bay Packers in the 1964 draft."
    assert names_title(claim, "1964 Green Bay Packers season", any_order=True)
    assert not names_title(claim, "1964 Green Bay Packers season")  # not as one phrase
    assert not names_title(claim, "1965 Green Bay Packers season", any_order=True)
    architect = "Eugene Pandala attended the School of Planning and Architecture in New Delhi."
    assert not names_title(architect, "List of architecture schools", any_order=True)
    italian = "In the 2007 Formula One season, the italian grand prix be construct by ferrari"
    assert not names_title(italian, "List of Formula One Grands Prix", any_order=True)  # no year


def test_a_season_is_not_contradicted_by_one_of_its_years():
    title = "1995 Belarusian Premier League"
    ev = [_sentence(title, f"{title} was the fifth season of top-tier football in Belarus.")]
    check = check_numbers(
        f"Dinamo Minsk finished first in the 1994-95 season before the {title}.", ev
    )
    assert not check.conflicts and check.matched == ["1994", "1995"]  # the span holds 1995
    # a season across a century holds the next century's first year
    turn = "2000 Belarusian Premier League"
    ev_turn = [_sentence(turn, f"{turn} was the tenth season of top-tier football in Belarus.")]
    check = check_numbers(
        f"Dinamo Minsk finished first in the 1999-00 season before the {turn}.", ev_turn
    )
    assert not check.conflicts and check.matched == ["1999", "2000"]
    # a year stated alone is another season
    check = check_numbers(f"Dinamo Minsk finished first in the 1994 season before the {title}.", ev)
    assert check.conflicts[0]["claimed"] == "1994"
    # a span with another first year than the page's conflicts
    ev = [_sentence("Zürich ePrix", "The Zürich ePrix debuted in the 2017–18 Formula E season.")]
    check = check_numbers("The Zürich ePrix debuted in the 2018-18 Formula E season.", ev)
    assert check.conflicts[0]["claimed"] == "2018"
    assert not check_numbers(
        "The Zürich ePrix debuted in the 2017-18 Formula E season.", ev
    ).conflicts
    # where the page writes a span, spans are compared, start to start
    ev = [
        _sentence(
            "Oswestry Castle",
            "The war between Stephen and Matilda (1135–54) began; in 1138 the lord joined.",
        )
    ]
    check = check_numbers(
        "The war between Stephen and Matilda (1137–54) was at Oswestry Castle.", ev
    )
    assert check.conflicts[0]["claimed"] == "1137" and check.conflicts[0]["found"] == "1135"


def test_the_pages_year_the_claim_states_is_no_value_against_its_other_years():
    from tests.pages import table_elements

    title = "1988 Notre Dame Fighting Irish football team"
    cells = table_elements(title, [["Name", "Year", "Team", "Round"],
                                   ["Derek Brown", "1992", "New York Giants", "1"]])  # fmt: skip
    giants = [el for el in cells if el.type == "cell" and el.text == "New York Giants"]
    claim = f"Derek Brown of the {title} was drafted by the New York Giants in 1992."
    check = check_numbers(claim, giants)
    # the page's year agrees with the claim's 1988; it says nothing of 1992
    assert not check.conflicts and check.matched == ["1988"] and check.unstated == ["1992"]
    # a year the page's text gives for the same thing still conflicts
    ev = [_sentence(title, "Derek Brown was drafted by the New York Giants in 1990.")]
    check = check_numbers(claim, ev)
    assert check.conflicts and check.conflicts[0]["found"] == "1990"


def test_a_share_is_read_from_its_own_item_of_a_cell_and_quoted_by_its_whole_part():
    cells = infobox_elements("Republic of Kazakhstan",
                             [("Ethnic group", "66.48% Kazakh, 20.61% Russian, 12.91% others")])  # fmt: skip
    check = check_numbers("The Republic of Kazakhstan has 20% of the people being Russian.", cells)
    assert check.matched == ["20%"] and not check.conflicts
    # another item's share is not the claim's: only the Russians' item stands against it
    (conflict,) = check_numbers(
        "The Republic of Kazakhstan has 35% of the people being Russian.", cells
    ).conflicts
    assert conflict["found"] == "20.61%"
    # a share rounded the other way, or with decimals of its own, is still a different value
    assert check_numbers("In the Republic of Kazakhstan 21.5% are Russian.", cells).conflicts
    assert check_numbers("In the Republic of Kazakhstan 19% are Russian.", cells).conflicts
    # a value of another kind (a date against a count of years) is still no conflict
    chess = infobox_elements("Chess960", [("Years active", "June 19, 1996")])
    assert not check_numbers("Chess960 has been around for 20 years.", chess).conflicts
    # where no item names the claim's thing, the cell's header does: its first share stands
    shares = infobox_elements("Springfield", [("Share of people", "60% Kazakh, 30% Russian")])
    (conflict,) = check_numbers(
        "In Springfield 45% of the people are from elsewhere.", shares
    ).conflicts
    assert conflict["found"] == "60%"


def test_a_season_decade_or_century_is_compared_with_the_date_given_for_the_same_thing():
    album = infobox_elements("Hot Space", [("Released", "21 May 1982"), ("Recorded", "1981")])
    fall = check_numbers("Hot Space was released in the Fall of 1982.", album)
    assert fall.matched == ["1982"]  # the year agrees ...
    assert fall.conflicts == [
        {"claimed": "in the Fall of 1982", "found": "21 May 1982", "id": "Hot Space_cell_0_1_1"}
    ]  # ... the season does not
    assert not check_numbers("Hot Space was released in the spring of 1982.", album).conflicts
    person = infobox_elements("Ann Lee", [("Born", "4 May 1928"), ("Occupation", "painter")])
    late = check_numbers("Ann Lee was born in the late 1920's.", person)
    assert late.matched == ["late 1920's"] and not late.conflicts  # not the year 1920
    early = check_numbers("Ann Lee was born in the early 1920's.", person)
    assert early.conflicts[0]["found"] == "4 May 1928"
    century = check_numbers("Ann Lee was born in the 17th century.", person)
    assert century.conflicts[0]["claimed"] == "17th century"
    # the words around the period name the row: a painter's "Year" is not her birth
    assert not check_numbers("Ann Lee painted in the 17th century.", person).conflicts


def test_a_period_conflicts_only_with_a_row_about_its_event_that_it_can_place():
    person = infobox_elements(
        "Jim Nabors", [("Born", "June 12, 1930, Sylacauga"), ("Died", "November 30, 2017")]
    )
    # June is next to spring; the death date is another event, of another year
    check = check_numbers("Jim Nabors was born in the spring of 1930.", person)
    assert check.matched == ["1930"] and not check.conflicts
    release = infobox_elements("Fargo", [("Release date", "March 8, 1996, May 31, 1996")])
    assert not check_numbers("Fargo was released in the winter.", release).conflicts
    # a period leaves nothing unstated for the sufficiency model's count of values
    assert check_numbers("Fargo was released in the summer.", []).unstated == []


def test_a_count_is_compared_with_the_items_its_row_lists():
    album = infobox_elements(
        "In Rainbows",
        [("Label", "Self-released, Xurbia Xendless, XL, TBD"), ("Producer", "Nigel Godrich")],
    )
    four = check_numbers("In Rainbows came out on four labels.", album)
    assert four.matched == ["four labels"] and not four.conflicts
    two = check_numbers("In Rainbows came out on 2 labels.", album)
    assert two.conflicts == [{"claimed": "2", "found": "4 listed", "id": "In Rainbows_cell_0_1_1"}]
    assert check_numbers("In Rainbows had two producers.", album).conflicts[0]["found"] == (
        "1 listed"
    )
    assert not check_numbers("In Rainbows came out on more than two labels.", album).conflicts
    # a count of something no row lists is no conflict, nor is a row that writes its number
    assert not check_numbers("In Rainbows has two singles.", album).conflicts
    people = infobox_elements("Ann Lee", [("Children", "3 (2 sons)")])
    assert not check_numbers("Ann Lee had two children.", people).conflicts
    # "and" joins two items where no comma lists them; brackets belong to their item; a row
    # whose header says more than the noun ("Birth name") lists no such things
    person = infobox_elements(
        "Ann Lee",
        [("Children", "Philippine and Morgane"), ("Studio", "Flora (Portland, Oregon), Gang"),
         ("Genre", "Blues, rhythm and blues"), ("Birth name", "Ann Smith")],
    )  # fmt: skip
    for claim in ("had two children", "recorded in two studios", "plays two genres"):
        assert check_numbers(f"Ann Lee {claim}.", person).matched, claim
    assert not check_numbers("Ann Lee had four different names.", person).conflicts


def test_a_length_of_time_is_compared_with_the_range_its_row_writes():
    band = infobox_elements("Ann Band", [("Years active", "1984 – 2017"), ("Label", "EMI")])
    short = check_numbers("Ann Band was active for less than thirty years.", band)
    assert short.conflicts[0]["claimed"] == "less than thirty years"
    assert check_numbers("Ann Band was active for over 30 years.", band).matched == [
        "over 30 years"
    ]
    # the number of a length is no count, and a row about something else says nothing
    assert not check_numbers("Ann Band was signed to EMI for 3 years.", band).conflicts
    open_ended = infobox_elements("Ann Band", [("Years active", "1970–1984, 1985–present")])
    assert not check_numbers("Ann Band was active for 14 years.", open_ended).conflicts


def test_a_works_year_row_dates_its_making_and_a_seasons_short_year_is_no_count():
    painting = infobox_elements("Pearl Girl", [("Artist", "Vermeer"), ("Year", "c. 1665")])
    early = check_numbers("Pearl Girl was painted at the beginning of the 17th century.", painting)
    assert early.conflicts[0]["found"] == "1665"
    assert check_numbers("Pearl Girl is a 17th century painting.", painting).matched
    # "Year" dates the making only: a claim about something else is not set against it
    assert not check_numbers("Pearl Girl was sold in the early 17th century.", painting).conflicts
    comic = infobox_elements("Ann Comic", [("Publication date", "June 1977")])
    summer = check_numbers("Ann Comic was first published in the Summer of '77.", comic)
    assert summer.matched == ["in the Summer of '77"] and summer.unstated == []


def test_a_spaced_span_holds_its_years_and_a_count_of_four_digits_is_no_year():
    from tests.pages import table_elements

    ev = table_elements(
        "2007–08 Boston Celtics season",
        [["game", "date", "team", "score"], ["33", "january 2", "miami", "w 117 - 87"]],
        caption="2007 - 08 boston celtics season",
    )
    claim = (
        "the boston celtic have their highest score game of january in miami during the "
        "2007 - 2008 season , score 117"
    )
    check = check_numbers(claim, ev)
    assert not check.conflicts and check.matched == ["2007", "117"]  # the span, by its first year
    marriages = table_elements(
        "Same-sex marriage", [["year", "same-sex marriages"], ["2005", "1275"], ["2008", "1801"]]
    )
    check = check_numbers("in 2005 there be 352 same-sex marriages", marriages)
    assert check.matched == ["2005"] and not check.conflicts  # 1275 is a count, not a year
    assert check_numbers("the year 2006 have 352 same-sex marriages", marriages).conflicts


def test_a_verdict_shown_below_not_enough_info_on_tables_is_not_enough_info():
    race = "1950 Italian Grand Prix"
    cells = [
        cell_element(race, 1, c, text, ch=[header])
        for c, (text, header) in enumerate(
            [("Alberto Ascari", "Driver"), ("Ferrari", "Constructor")]
        )
    ]
    sentence = _sentence(race, "Alberto Ascari finished second.")
    scaling = {"verdict": (1.0, -3.0, 1.0), "nei": (1.0, 0.0, 0.0)}
    unsure = {SUPPORTS: 0.1, REFUTES: 0.5, NEI: 0.4}
    label, shown = checked_answer(REFUTES, unsure, scaling, 0.9, cells)
    # sigmoid(logit(0.5) - 3 + 0.9) = 0.109: NOT ENOUGH INFO, with the rest, ranks first
    assert shown[REFUTES] == pytest.approx(0.109, abs=1e-3)
    assert label == NEI and max(shown, key=shown.get) == NEI
    assert sum(shown.values()) == pytest.approx(1.0, abs=3e-6)
    # beside a sentence the answer stands (a contradiction there is mostly right), shown with no label above it: at 0.109 no split keeps it first, so every label is a third
    label, beside = checked_answer(REFUTES, unsure, scaling, 0.9, [*cells, sentence])
    assert label == REFUTES and list(beside.values()) == [0.333333] * 3
    # where it can, the answer keeps its calibrated number and the label above comes down to it
    label, beside = checked_answer(REFUTES, unsure, scaling, 2.5, [*cells, sentence])
    assert label == REFUTES and beside[REFUTES] == beside[NEI] > beside[SUPPORTS]
    assert beside[REFUTES] == round(
        checked_answer(REFUTES, unsure, scaling, 2.5, cells)[1][REFUTES], 6
    )
    assert sum(beside.values()) == pytest.approx(1.0, abs=3e-6)
    # a verdict still shown first stays
    sure = {SUPPORTS: 0.05, REFUTES: 0.9, NEI: 0.05}
    label, shown = checked_answer(REFUTES, sure, scaling, 0.9, cells)
    assert label == REFUTES and max(shown, key=shown.get) == REFUTES
    # NOT ENOUGH INFO itself is never changed
    assert checked_answer(NEI, unsure, scaling, 0.0, cells)[0] == NEI
