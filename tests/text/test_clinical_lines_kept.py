"""PHI-free ICU and ward lines that L2 must leave exactly as written (clinical content, not identifiers).

Written for clinx in the styles of real charting (systems-review lines in capitals, lower-case progress
notes, mixed-case consult notes with eponyms and shorthand). A change that makes L2 remove any part of
one of them costs precision on real notes, where most text is clinical.
"""

import pytest

from clinx.text.pipeline import deidentify

LINES = [
    'NEURO: A&OX3, MAE, PERRLA 3MM BRISK. NO SEDATION.',
    'CV: ST 100-110, SBP 90S-100S ON LEVO 0.08. MAPS >65. +PP, 2+ EDEMA BLE.',
    'RESP: CMV 500X14 PEEP 8 FIO2 40%. SX FOR MOD AMT TAN SECRETIONS. LS COARSE BIL.',
    'GI: ABD SOFT, DISTENDED, +BS. TF @ GOAL 60CC/HR VIA OGT. RESIDUALS <50. NO BM.',
    'GU: FOLEY DRAINING CLEAR YELLOW URINE 30-50CC/HR. CREAT 2.1.',
    'ID: TMAX 101.2. WBC 14.2. ON VANC/ZOSYN. BCX X2 PENDING. SPUTUM SENT.',
    'ENDO: RISS, BS 140-180. COVERED PER SCALE.',
    'SKIN: STAGE II SACRUM, MEPILEX IN PLACE. TURNED Q2H.',
    'SOCIAL: FAMILY UPDATED BY TEAM. FULL CODE.',
    'PLAN: WEAN LEVO AS TOL, SBT IN AM, F/U CX, REPLETE LYTES.',
    'pt w/ hx of afib on coumadin, inr 2.3 today. c/o sob overnight, lasix 40 iv given w/ good effect.',
    'lungs w/ crackles at bases, sats 94% on 2L NC. cxr showed mild vasc congestion.',
    'K 3.2 repleted w/ 40 meq kcl po. mag 1.8, 2g mag sulfate given.',
    'ambulated in hall w/ PT x2, tolerated well. steady gait w/ rolling walker.',
    'Hgb 7.1 this AM, 1 unit PRBC transfused w/o reaction. post-transfusion hgb 7.9.',
    'Echo: EF 35%, moderate MR, mild TR, RVSP 45. LVH. No pericardial effusion.',
    'CT head negative for acute bleed. MRI brain w/ small acute infarct L MCA territory.',
    'Pt seen by ortho, plan for ORIF L hip tomorrow. NPO after midnight. Consent signed.',
    'Heparin gtt per protocol, PTT 68 at 0600, no change in rate. Next PTT at 1200.',
    'Insulin drip titrated per Portland protocol, BG 120s-150s.',
    'Wound care per Wound RN recs: wet to dry BID to R heel.',
    'GCS 15. Moves all ext. Speech clear. Follows commands.',
    'Pt received Ativan 1mg IV x1 for agitation with good effect. CIWA 8.',
    'Dilaudid PCA 0.2mg q10min lockout, used 6 doses overnight, pain 4/10.',
    'Continue Keppra 500 BID, Depakote level pending.',
    'Chest tube to -20 sxn, no air leak, 150cc serosang drainage last shift.',
    'Patient transferred to 7 North telemetry bed 12. Report given to receiving RN.',
    'Hospice consult placed. Family meeting scheduled with palliative care team.',
    'Chaplain visited. Pt Catholic, requests Eucharist.',
    'Vitals: T 98.6 HR 88 BP 132/78 RR 18 SpO2 97% RA.',
    'Glasgow Coma Scale 14 (E4V4M6). Babinski negative bilaterally. Romberg positive.',
    "Murphy's sign positive. McBurney point tenderness absent. Homan's negative.",
    'Pt on Eliquis 5 BID, Lipitor 40 QHS, Metformin 1000 BID, Lantus 20 units QHS.',
    "Foley d/c'd at 0600, DTV by 1400. Bladder scan 250cc.",
    'Trach collar 35% FiO2, Passy-Muir valve trial tolerated 30 min.',
]


@pytest.mark.parametrize("line", LINES, ids=[f"line{i:02d}" for i in range(len(LINES))])
def test_clinical_line_is_unchanged_by_l2(line):
    assert deidentify(line, "L2").text == line
