"""L1 recognisers: each identifier form is masked with its typed placeholder; clinical text survives.

Test ids name the *form* of an identifier, never a value (no PHI in test names).
"""

import pytest

from clinx.records import Manifest
from clinx.text.pipeline import deidentify
from clinx.text.rules import RuleLevel, RuleRecognizer

L1 = RuleLevel()

POSITIVE = [
    ("name_cue", "Patient John Smith: is the left lung clear?", "John Smith", "NAME"),
    ("name_title", "Was the scan read by Dr. Alan Turing?", "Alan Turing", "NAME"),
    ("name_title_mrs", "Mrs. Okonkwo asks: is this a fracture?", "Okonkwo", "NAME"),
    ("name_dicom", "PN SMITH^JOHN^A is on the film; is the heart enlarged?", "SMITH^JOHN^A", "NAME"),
    ("name_last_first", "Doe, John - is there an effusion?", "Doe, John", "NAME"),
    ("name_possessive_pair", "Does Maria Garcia's chest x-ray show a fracture?", "Maria Garcia", "NAME"),
    ("name_possessive_single", "Is there a mass on Hernandez's CT?", "Hernandez", "NAME"),
    ("name_possessive_caps", "Is DITMAR AUMANN's scan abnormal?", "DITMAR AUMANN", "NAME"),
    ("name_midsentence_pair", "In the image of Katie Nelson, which lobe has the mass?", "Katie Nelson", "NAME"),
    ("name_caps_gazetteer", "Re: RENEE PAUL / is there a lesion?", "RENEE PAUL", "NAME"),
    ("name_unicode", "Is this an ultrasound for patient Białasik, Piotr?", "Białasik, Piotr", "NAME"),
    ("name_particles", "Study for Nadia van der Heijden: is the aorta dilated?", "Nadia van der Heijden", "NAME"),
    ("date_iso", "Was the 1961-03-14 study normal?", "1961-03-14", "DATE"),
    ("date_us", "DOB 03/14/1961: is the liver enlarged?", "03/14/1961", "DATE"),
    ("date_eu_dotted", "Scan from 14.03.1961, is it normal?", "14.03.1961", "DATE"),
    ("date_dmy_abbrev", "Born 14-Mar-1961, is the spleen enlarged?", "14-Mar-1961", "DATE"),
    ("date_month_day_year", "Seen March 14, 1961: any nodule?", "March 14, 1961", "DATE"),
    ("date_day_month_year", "Seen 14 March 1961: any nodule?", "14 March 1961", "DATE"),
    ("date_compact", "Study date 20230502 - is the brain normal?", "20230502", "DATE"),
    ("date_with_time", "Acquired 2023-05-02T10:30:00, is there edema?", "2023-05-02T10:30:00", "DATE"),
    ("date_two_digit_year", "Seen 3/14/61, is there edema?", "3/14/61", "DATE"),
    ("mrn_cue", "MRN 48213377: is there a pneumothorax?", "48213377", "MRN"),
    ("mrn_words", "Medical record number: A12-3345. Any mass?", "A12-3345", "MRN"),
    ("accession_cue", "Acc ACC2020-699199 - what modality is this?", "ACC2020-699199", "ACCESSION"),
    ("phone_paren", "Call (555) 123-4567 with the result: is it benign?", "(555) 123-4567", "PHONE"),
    ("phone_ext", "Phone 262.218.8623x85790, is the kidney normal?", "262.218.8623x85790", "PHONE"),
    ("phone_intl", "Reach +1 492 302 1007 - any effusion?", "+1 492 302 1007", "PHONE"),
    ("fax_cue", "Fax: 5551234567. Any effusion?", "5551234567", "PHONE"),
    ("email", "Send to jane.doe81@example-health.org: is it normal?", "jane.doe81@example-health.org", "EMAIL"),
    ("url", "See https://portal.example.org/p?id=3. Is the lung clear?", "https://portal.example.org/p?id=3", "URL"),
    ("ssn", "SSN 123-45-6789 - is the heart enlarged?", "123-45-6789", "SSN"),
    ("hospital_st", "Was the CT done at St. Mary Hospital?", "St. Mary Hospital", "HOSPITAL"),
    ("hospital_medical_center", "Imaged at Riverside Medical Center: any bleed?", "Riverside Medical Center", "HOSPITAL"),
    ("hospital_clinic", "Seen at Mayo Clinic, is the thyroid enlarged?", "Mayo Clinic", "HOSPITAL"),
    ("hospital_caps", "Seen at WEST BROOK GENERAL HOSPITAL. Any mass?", "WEST BROOK GENERAL HOSPITAL", "HOSPITAL"),
    ("hospital_of", "Transferred from Hospital of the University of Pennsylvania: any bleed?", "Hospital of the University of Pennsylvania", "HOSPITAL"),
    ("hospital_id", "Hospital ID H-88213: is this a CT?", "H-88213", "ID"),
    ("age_over_89", "A 92-year-old man: is there cardiomegaly?", "92", "AGE"),
    ("age_cue", "Patient aged 97, is there an effusion?", "97", "AGE"),
    ("zip_cue", "ZIP 46202. Is the lung clear?", "46202", "ZIP"),
    ("zip_state", "Lives in Indianapolis, IN 46202. Any mass?", "46202", "ZIP"),
    ("long_id", "Study 9876543210 shows what organ?", "9876543210", "ID"),
]


@pytest.mark.parametrize("text,value,cat", [p[1:] for p in POSITIVE], ids=[p[0] for p in POSITIVE])
def test_identifier_is_masked_with_its_category(text, value, cat):
    res = L1.apply(text)
    assert value not in res.text
    assert f"[{cat}]" in res.text
    cats = {s.category for s in res.removed}
    assert cat in cats


CLINICAL = [
    ("yes_no_lung", "Is the left lung clear?"),
    ("measurements", "Is the T2 lesion at C5-C6 larger than 5 cm?"),
    ("counts", "Are there 2 lesions in the right lobe?"),
    ("modality", "What organ is shown in this MRI image?"),
    ("eponym_possessive", "Is Smith's fracture present?"),
    ("eponym_disease", "Does Crohn's disease show on this CT?"),
    ("eponym_cyst", "Is there evidence of Baker cyst in the knee?"),
    ("eponym_syndrome", "Is this Turner syndrome?"),
    ("age_under_90", "Is this 45-year-old's chest normal?"),
    ("ratio", "Is the cardiothoracic ratio above 0.5 on the PA view?"),
    ("blood_pressure", "BP 120/80, is the aorta dilated?"),
    ("vertebra_range", "Is there a fracture at T10-T12 or L4?"),
    ("tnm", "Is this T2N0M0 staging consistent with the CT?"),
    ("percent", "Is the stenosis above 70%?"),
    ("sentence_start", "Which lobe has the mass? Where is the nodule?"),
    ("may_verb", "Is there a lesion that may 2 cm grow?"),
]


@pytest.mark.parametrize("text", [c[1] for c in CLINICAL], ids=[c[0] for c in CLINICAL])
@pytest.mark.parametrize("level", ["L1", "L2"])
def test_clinical_text_survives_untouched(text, level):
    res = deidentify(text, level)
    assert res.text == text
    assert res.removed == []


def test_manifest_values_are_masked_at_l1_even_when_rules_miss_them():
    m = Manifest(fields={"patient_name": "Zq Xw", "other_id": "ab-cd"})
    text = "is zq xw ok and is ab-cd the code?"
    assert RuleLevel(use_manifest=False).apply(text, m).text == text
    out = RuleLevel().apply(text, m)
    assert "zq xw" not in out.text and "ab-cd" not in out.text
    assert {s.source.split(":")[0] for s in out.removed} == {"manifest"}


def test_enabled_restricts_recognisers():
    rec = RuleRecognizer(frozenset({"email"}))
    cands = rec.find("Mail a@b.org on 2023-05-02")
    assert [c.category for c in cands] == ["EMAIL"]


def test_offsets_point_into_the_input_and_placeholders_are_not_rematched():
    text = "Patient John Smith, DOB 03/14/1961: is the lung clear?"
    res = L1.apply(text, None)
    for s in res.removed:
        assert 0 <= s.start < s.end <= len(text)
    again = L1.apply(res.text)
    assert again.text == res.text and again.removed == []
