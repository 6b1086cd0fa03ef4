"""Values on forms and in headers, and the words around them that stay.

Medicare's older claim number and a trauma activation's number after their cues, a street whose suffix ``DR`` is
followed by a suite, the person after ``caller:``, a month alone in parentheses after a result, a surname after a
quoted nickname closing a header field, dotted initials as a nickname, a rural route's box; and the look-alikes: ``caller: self``, a
trauma bay, ``Dr`` before a name, ``may`` the verb, and a header word opening the line after a removed number.
Test ids name the form, never a value.
"""

import pytest

from clinx.text.pipeline import TextPipeline

L2 = TextPipeline("L2")


def _out(text: str) -> str:
    return L2.run(text).text


@pytest.mark.parametrize(
    "text,gone",
    [
        ("PAYER: MEDICARE PART A  HICN 452-88-1903A", "452-88-1903A"),
        ("38M, MRN T-4490217, trauma # 23-1187", "23-1187"),
        ("PT INTERNAL MEDICINE OF ROCKVILLE, 9711 MEDICAL CENTER DR STE 200, ROCKVILLE MD 20850", "9711"),
        ("9711 OAK DR STE 200, ROCKVILLE MD", "OAK"),
        ("caller: kezia from optumrx (ref # pa-884720)", "kezia"),
        ("on bictegravir. vl <20 (may), cd4 612.", "may"),
        ("PATIENT: ROBERT \"BOBBY\" MAY   DOB: 12/30/1944", "MAY"),
        ("PATIENT: ABERNATHY, JOHN WESLEY \"J.W.\"  DOB 10/10/1955", "J.W."),
        ("ADDRESS RR 2 BOX 418, LAPORTE PA 18626", "RR"),
        ("visited pt at home, rt 3 box 114, hazard ky 41701.", "rt"),
    ],
    ids=["medicare_claim_number", "trauma_activation_number", "street_before_a_suite", "short_street_before_a_suite",
         "name_after_caller_label", "month_alone_after_a_result", "word_surname_after_a_quoted_nickname",
         "dotted_initials_as_a_nickname", "rural_route_box", "rural_route_box_in_lower_case"],
)
def test_the_value_goes(text, gone):
    out = _out(text)
    assert gone not in out.replace("(", " ").replace(")", " ").replace('"', " ").split(), out


@pytest.mark.parametrize(
    "text,kept",
    [
        ("caller: self", "self"),
        ("CALLER: DARLENE WHITAKER (SELF)   CB#: 208-555-6671", "SELF"),
        ("trauma 2 activation at 1400", "2"),
        ("trauma bay 3", "3"),
        ("sent rt 3 box of supplies", "box"),
        ("2 residents dr smith", "dr"),
        ("son Robert \"Bo\" may come tomorrow", "may"),
        ("38M, MRN T-4490217, trauma # 23-1187\nMOI: fall ~12 ft from roof", "MOI:"),
        ("DOB 9/9/1979   MRN 0091-52288\nREASON: DAUGHTER REPORTS PT MORE SOB", "REASON:"),
    ],
    ids=["caller_is_the_patient", "caller_is_the_patient_in_capitals", "trauma_level", "trauma_bay", "box_of_supplies", "title_before_a_name",
         "verb_after_a_nickname", "header_after_a_line_ending_in_an_id", "header_after_a_line_ending_in_an_mrn"],
)
def test_the_look_alike_stays(text, kept):
    out = _out(text)
    assert kept in out.replace("(", " ").replace(")", " ").split(), out
