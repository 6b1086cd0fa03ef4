"""A custodian's term list (text.l1.site_terms): listed names removed in any case, 'keep' terms left alone by L1 and
L2, a row's manifest outranks 'keep', the list is part of the pipeline's fingerprint, bad files fail with the file and
line named and no term shown, and the text CLI takes the setting as a Hydra override."""

import json

import pytest

from clinx.records import Manifest
from clinx.text.cli import run
from clinx.config import compose
from clinx.text.pipeline import TextPipeline
from clinx.text.site_terms import load_site_terms

SITE_TSV = (
    "# facilities, staff and ward names of one site (invented)\n"
    "HOSPITAL\tBright Path\n"
    "HOSPITAL\tthe bridge\n"
    "NAME\tWinter\n"
    "LOCATION\tFields Corner\n"
    "keep\tEllison 4\n"
    "keep\tPhillips House\n"
)


@pytest.fixture
def site(tmp_path):
    p = tmp_path / "site_terms.tsv"
    p.write_text(SITE_TSV)
    return p


def _pipe(path) -> TextPipeline:
    return TextPipeline("L2", l1={"site_terms": str(path)})


@pytest.mark.parametrize(
    "text,value",
    [("referred to bright path for housing", "bright path"),
     ("REFERRED TO THE BRIDGE OUTPATIENT PROGRAM", "bridge"),
     ("lives near fields corner w/ son", "fields"),
     ("plan reviewed w/ winter", "winter")],
    ids=["shelter_lower_case", "programme_capitals", "neighbourhood_lower_case", "staff_surname_that_is_a_word"],
)
def test_listed_terms_are_removed_in_any_case(site, text, value):
    # the rules alone miss them (the CRF tagger of L2 finds some: it is off here, so the list is what is tested)
    assert value in TextPipeline("L2", l2={"ner": None}).run(text).text.lower()
    assert value not in _pipe(site).run(text).text.lower()


@pytest.mark.parametrize(
    "text,value",
    [("transferred to Ellison 4 for tele", "Ellison 4"), ("Pt admitted to Phillips House.", "Phillips House")],
    ids=["ward_named_for_a_person", "house_named_for_a_person"],
)
def test_keep_terms_survive_l1_and_l2(site, text, value):
    assert value not in TextPipeline("L2").run(text).text  # taken for a name or a facility without the list
    assert _pipe(site).run(text).text == text


def test_a_rows_manifest_outranks_keep(site):
    out = _pipe(site).run("transferred to Ellison 4", Manifest(fields={"patient_name": "Ellison"})).text
    assert "Ellison" not in out


def test_json_lists_and_the_fingerprint_follow_the_content(tmp_path):
    p = tmp_path / "site.json"
    p.write_text(json.dumps({"HOSPITAL": ["Bright Path"], "keep": ["Ellison 4"]}))
    a = _pipe(p).fingerprint()
    assert "bright path" not in _pipe(p).run("referred to bright path").text
    p.write_text(json.dumps({"HOSPITAL": ["Bright Path", "Rosie's Place"]}))
    assert _pipe(p).fingerprint() != a != TextPipeline("L2").fingerprint()


@pytest.mark.parametrize(
    "content,problem",
    [("HOSPITAL Bright Path Inn\n", "line 1: expected CATEGORY<TAB>term"),
     ("# ok\nPLACE\tSecret Town\n", "line 2: unknown category"),
     ("NAME\t--\n", "line 1: the term has no letters")],
    ids=["no_tab", "unknown_category", "no_letters"],
)
def test_bad_lines_name_the_file_and_line_not_the_term(tmp_path, content, problem):
    p = tmp_path / "bad.tsv"
    p.write_text(content)
    with pytest.raises(ValueError) as e:
        load_site_terms(p)
    assert problem in str(e.value) and str(p) in str(e.value) and "Secret" not in str(e.value)


def test_a_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="site terms"):
        TextPipeline("L2", l1={"site_terms": str(tmp_path / "nope.tsv")})


def test_the_text_cli_takes_the_list_as_an_override(tmp_path, site):
    src = tmp_path / "notes.jsonl"
    src.write_text(json.dumps({"question": "pt referred to bright path inn; transferred to Ellison 4"}) + "\n")
    cfg = compose("text", [f"output_dir={tmp_path / 'out'}", "progress=false", f"input={src}", f"text.l1.site_terms={site}"])
    run(cfg)
    row = json.loads((tmp_path / "out" / "notes.deid.jsonl").read_text())
    assert "bright path" not in row["question"] and "Ellison 4" in row["question"]
