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
    # lower-case and capitals nursing shift lines (systems review, drips, scales, dispo plans)
    'neuro: a&ox3, mae, perrl 3mm brisk, follows commands, denies pain. gcs 15.',
    'cv: nsr 80s-90s no ectopy, sbp 110-130s, palp pedal pulses, +1 edema bilat le.',
    'resp: ls clear upper, dim bases, o2 2l nc sats 96-98%, strong cough, expect thick tan sputum.',
    'gi: abd soft nt/nd, +bs x4 quads, tf at goal 60cc/hr, residuals <30cc, no bm this shift.',
    'gu: foley patent draining clear yellow urine 40-60cc/hr. bun/cr stable.',
    'skin: coccyx stage 2 intact, duoderm changed, heels boggy, waffle boots on.',
    'id: tmax 100.2 po, wbc 12.1 trending down, on vanco/zosyn, f/u bld cx.',
    'endo: riss coverage per scale, fs 140-180s, lantus 20u at hs.',
    'social: wife in to visit, updated on plan of care by team, plan for family mtg tomorrow.',
    'plan: cont to monitor, wean o2 as tol, oob to chair in am, pt/ot consults.',
    'pt turned and repositioned q2h, back care given, skin intact. hob >30.',
    'received pt from or at 1400 intubated/sedated on propofol 30mcg, fent 50mcg/hr.',
    'a-line site dsg c/d/i, good waveform, correlates with cuff.',
    'gave lasix 40mg ivp at 1600 with good response, 800cc uo over 2hrs.',
    'k 3.4 repleted with 40meq kcl po, mg 1.8 repleted 2gm iv.',
    'pt c/o incisional pain 6/10, medicated with dilaudid 1mg iv with relief to 2/10.',
    'ngt to lcws draining bilious drainage 300cc this shift.',
    'pt restless overnight, reoriented frequently, haldol 2mg iv x1 with effect.',
    'ct head neg for bleed per radiology, neuro checks q1h.',
    'family at bedside most of day, very supportive, asking appropriate questions.',
    'cxr this am shows improving rll infiltrate, ett in good position.',
    'vent settings: ac 500x14 peep 8 fio2 40%, abg 7.38/42/98.',
    'weaned to psv 10/5 tolerated well x4hrs, rsbi 62.',
    'pt extubated at 1030 to 4l nc, good cough, able to clear secretions.',
    'lopressor 5mg iv given for hr 120s afib, converted to nsr 90s.',
    'heparin gtt at 1000u/hr, ptt 72 therapeutic, next ptt at 2200.',
    'insulin gtt titrated per protocol, bs 110-150.',
    'pt tolerating clears, advance diet as tol to cardiac/diabetic.',
    'rectal tube in place draining liquid brown stool, c diff sent.',
    'ortho following, pt ntwb rle, pt working on transfers with walker.',
    'echo showed ef 35%, mild mr, mod tr, no effusion.',
    'bilat le dopplers neg for dvt.',
    'pt refused am labs, md aware, will re-draw at 0600.',
    'chaplain in to see pt per family request.',
    'case mgmt following for dispo, likely rehab vs home with services.',
    'pt is full code, hcp is wife per chart.',
    'iv access: r ij tlc placed 5 days ago, l fa 20g piv.',
    'pain control adequate with pca, using appropriately.',
    'pt anxious, ativan 0.5mg iv given with good effect, slept most of noc.',
    "voiding qs in urinal after foley dc'd at 0600.",
    'PT ALERT AND ORIENTED X3, MOVING ALL EXTREMITIES, FOLLOWING COMMANDS.',
    'LUNGS COARSE, SUCTIONED FOR MOD AMT THICK WHITE SECRETIONS.',
    'ABD DISTENDED, HYPOACTIVE BS, NPO EXCEPT MEDS.',
    'PT REMAINS ON NEO GTT AT 0.5MCG/KG/MIN, WEANING AS TOL TO MAP >65.',
    'FAMILY UPDATED BY MD AT BEDSIDE, ALL QUESTIONS ANSWERED.',
    'CONT TO MONITOR HEMODYNAMICS, I&O, LYTES.',
    'PT WITH HX OF CHF, COPD, DM2, CRI, S/P CABG X3, PRESENTED WITH SOB AND CP.',
    'RECEIVED 2 UNITS PRBC FOR HCT 24, POST HCT PENDING.',
    'SKIN: SACRAL DECUB STAGE 3, WOUND CARE RN FOLLOWING, DSD CHANGED.',
    'DENIES N/V, TOLERATING REG DIET, BM X1 SOFT BROWN GUAIAC NEG.',
    'mental status changes improved, more alert today.',
    'ekg: sinus brady 50s, 1st degree avb, no st changes.',
    'pt seen by renal, plan for hd tomorrow via l av fistula, + bruit/thrill.',
    'glucose stable, will cont ssri and trazodone at hs.',
    'wound vac to abd at -125 mmhg, changed by surgery team.',
    'mae, strength 5/5 upper, 4/5 lower, sensation intact.',
    'pt stable, no acute events, will cont current plan.',
    "pt's daughter called for update, given by rn.",
    'patient transferred to floor in stable condition with all belongings.',
]


@pytest.mark.parametrize("line", LINES, ids=[f"line{i:02d}" for i in range(len(LINES))])
def test_clinical_line_is_unchanged_by_l2(line):
    assert deidentify(line, "L2").text == line


@pytest.mark.parametrize(
    "line, date",
    [
        ("pain 8/10 at start of shift. f/u in clinic 4/10.", "4/10"),
        ("weak grip, seen 4/5 by neuro.", "4/5"),
        ("strength testing deferred, next appt 3/5.", "3/5"),
    ],
    ids=["pain-then-follow-up", "weak-then-seen", "strength-then-appt"],
)
def test_dates_beside_scale_words_still_go(line, date):
    # a pain or strength word on the line makes only a matching score a score, not every date
    assert date not in deidentify(line, "L2").text
