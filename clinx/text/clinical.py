"""Clinical content of a question or note: term lexicon and question form.

Two jobs:

* the L3 validator accepts a rewrite only if it keeps the anatomy / modality /
  finding terms and the question form of its input (:func:`check_clinical`);
* the ``clinical_term_retention`` metric measures how much clinical content a
  level kept (:func:`term_retention`).

The lexicon is deliberately hand-written and small (a few hundred head terms
that MedVQA questions and chest X-ray reports use) so it is fast, offline and
auditable; it is also the stop-list that keeps L1/L2 from masking clinical
words that happen to be capitalised ("Left", "Lung", "MRI").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

ANATOMY = """
abdomen abdominal adrenal alveolar alveoli aorta aortic apex apical appendix arm artery arteries atrium
axilla axillary back basal base bladder bone bones bowel brain brainstem breast bronchi bronchial bronchus
calvarium cardiac carina carotid cartilage cecum cerebellum cerebral cerebrum cervical cervix chest clavicle
coccyx colon colonic cord coronary cortex cortical costophrenic cranial cranium diaphragm diaphragmatic disc
disk duodenum ear elbow esophagus esophageal eye face femur femoral fibula finger fissure foot forearm
frontal gallbladder gland glottis groin hand head heart hemidiaphragm hepatic hilar hilum hip humerus ileum
iliac intestine intestinal jaw jejunum joint kidney kidneys knee larynx leg ligament limb liver lobe lobar
lumbar lung lungs lymph mandible maxilla mediastinal mediastinum meninges mesentery muscle nasal neck nerve
node nodes occipital orbit orbital ovary pancreas pancreatic parenchyma parietal pelvis pelvic pericardium
pericardial peritoneum peritoneal pharynx pituitary pleura pleural prostate pulmonary radius rectum renal
retina retinal rib ribs sacrum scapula shoulder sinus sinuses skin skull spinal spine spleen splenic sternum
stomach subclavian tendon temporal testis thalamus thigh thoracic thorax thyroid tibia tissue toe tongue
trachea tracheal ulna ureter urethra uterus vagina vein vena ventricle ventricles ventricular vertebra
vertebrae vertebral vessel vessels wrist airway airways lingula cardiomediastinal silhouette costal
hemithorax hemithoraces subcutaneous soft-tissue mediastinum hila vasculature vascular interstitial
""".split()

ANATOMY_PHRASES = """
left lung|right lung|upper lobe|lower lobe|middle lobe|lymph node|lymph nodes|pleural space|
soft tissue|soft tissues|vena cava|spinal cord|small bowel|large bowel|bile duct|white matter|gray matter|
grey matter|basal ganglia|cardiac silhouette|pulmonary vasculature|costophrenic angle|lung base|lung bases
""".replace("\n", "").split("|")

MODALITY = """
ct mri mr xray x-ray radiograph radiographs radiography ultrasound us sonography sonogram pet spect
mammogram mammography angiogram angiography fluoroscopy scan scans film films image images imaging view
views pa ap lateral axial coronal sagittal contrast t1 t2 flair dwi adc doppler echocardiogram echo ekg ecg
endoscopy colonoscopy biopsy histology histopathology microscopy slide stain he cta mra
""".split()

MODALITY_PHRASES = """
chest x-ray|chest xray|chest radiograph|ct scan|mri scan|pet scan|x ray|t1 weighted|t2 weighted|t1-weighted|
t2-weighted|diffusion weighted|frontal view|lateral view|pa view|ap view
""".replace("\n", "").split("|")

FINDING = """
abnormality abnormal abscess adenopathy air airspace aneurysm atelectasis atrophy blunting bleed bleeding
calcification calcified calcifications cancer carcinoma cardiomegaly cavitation cavity collapse congestion
consolidation cyst cystic deformity degenerative density dilation dilated dilatation disease dislocation
edema effusion effusions embolism emphysema emphysematous enlarged enlargement erosion fibrosis fluid
fracture fractures granuloma granulomas granulomatous hemorrhage hernia herniation hydronephrosis
hyperinflation hyperexpanded hypertrophy infarct infarction infection infiltrate infiltrates inflammation
injury ischemia lesion lesions lucency malignancy malignant mass masses metastasis metastases metastatic
necrosis neoplasm nodule nodules normal obstruction occlusion opacity opacities osteophyte osteophytes
pneumonia pneumothorax pneumoperitoneum polyp scarring sclerosis scoliosis kyphosis stenosis stone stones
swelling thickening thrombus thrombosis tortuous tortuosity tuberculosis tumor tumour ulcer granulomata
clear unremarkable stable acute chronic benign cardiopulmonary consolidations pneumonitis bronchiectasis
hyperlucent hypodense hyperdense hypoechoic hyperechoic enhancement enhancing midline shift
""".split()

FINDING_PHRASES = """
pleural effusion|pulmonary edema|air space|airspace disease|focal consolidation|pulmonary nodule|
lung nodule|free air|midline shift|mass effect|ground glass|ground-glass|interstitial markings
""".replace("\n", "").split("|")

#: Direction and measurement words that are clinical content too (they change the answer).
QUALIFIERS = """
left right bilateral unilateral upper lower middle anterior posterior superior inferior medial distal
proximal central peripheral focal diffuse small large mild moderate severe
""".split()

#: Head nouns that follow an eponym ("Smith's fracture", "Baker cyst"): a possessive
#: name followed by one of these is a disease name, not a person.
EPONYM_HEADS = frozenset(
    """
fracture fractures disease syndrome sign signs lesion lesions sarcoma lymphoma node nodes esophagus cyst
cysts palsy ulcer pouch space line lines tumor tumour canal deformity diverticulum aneurysm angle
phenomenon reflex test classification criteria score scale procedure operation nodule nodules
dislocation ring triad law point body bodies membrane duct capsule
stage stages grade grading method class maneuver manoeuvre rule rules
""".split()
)

#: Capitalised eponyms and clinical proper nouns that are not people in this context.
EPONYMS = frozenset(
    """
crohn hodgkin parkinson alzheimer bell barrett wilms ewing kaposi cushing addison graves hashimoto
huntington meckel paget raynaud reiter sjogren tourette wernicke zenker baker boerhaave colles barton
bennett jefferson monteggia galeazzi pott pancoast kerley virchow schmorl morison hirschsprung kawasaki
kienbock perthes osgood schlatter scheuermann wegener whipple takayasu reye down turner klinefelter
marfan ehlers danlos gaucher niemann klatskin krukenberg brodie charcot lisfranc maisonneuve segond
salter stener hoffa bankart hill sachs chiari dandy walker arnold fallot ebstein eisenmenger kussmaul
cheyne stokes horner babinski glasgow apgar gleason breslow clark hounsfield fleischner
homan homans nissen mcburney romberg rovsing chvostek trousseau kernig brudzinski lachman mcmurray phalen tinel
finkelstein trendelenburg valsalva heimlich
tanner nottingham simpson bishop wells mallampati killip ranson pugh binet
faber ashworth jamar zimmer
""".split()
)
#: Exam signs that notes pair across a slash ("neg Ortolani/Barlow", "Grey Turner/Cullen", "Tinel/Phalen"): surnames
#: too, so a sign only beside another one (:func:`clinx.text.evidence.is_eponym`), never alone.
PAIRED_SIGNS = EPONYMS | frozenset("cullen ortolani barlow murphy spurling hawkins neer yergason adson hoffmann hoffman".split())

_TERMS_1 = frozenset(w.lower() for w in ANATOMY + MODALITY + FINDING)
_PHRASES = frozenset(p.strip().lower() for p in ANATOMY_PHRASES + MODALITY_PHRASES + FINDING_PHRASES if p.strip())

#: Species epithets of the organisms culture results name ("Candida glabrata", "Proteus mirabilis"): clinical
#: words, and after a genus that is also a given name (Candida) they make it the organism.
SPECIES = frozenset(
    """
abscessus acnes aerogenes aeruginosa agalactiae albicans anginosus aureus auris avium baumannii bovis
burgdorferi capitis catarrhalis cepacia chelonae cholerae cloacae coli difficile dubliniensis dysgalactiae
epidermidis faecalis faecium fluorescens fortuitum fragilis freundii fumigatus gallolyticus glabrata gondii
gonorrhoeae haemolyticus henselae hominis influenzae intracellulare jeikeium jejuni jirovecii kansasii koseri
krusei lamblia lugdunensis lusitaniae maltophilia marcescens marinum meningitidis mirabilis mitis monocytogenes
morganii multocida mutans neoformans oralis oxytoca pallidum parapsilosis perfringens pneumoniae pneumophila
putida pylori pyogenes rettgeri salivarius sanguinis saprophyticus septicum simulans stuartii tetani trachomatis
tropicalis tuberculosis typhi typhimurium ulcerans vaginalis viridans vulnificus xylosoxidans
""".split()
)

#: Every word the de-identification rules must never treat as a name or ID.
CLINICAL_WORDS = frozenset(_TERMS_1 | {w.lower() for w in QUALIFIERS} | EPONYM_HEADS | SPECIES)

_WORD_RE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)?")

#: Clinical tokens shaped like codes: vertebral levels (C5, C5-C6, T12-L1),
#: MRI weightings (T1, T2W), TNM stages (T2N0M0), ECG leads (V1-V6),
#: measurements (5cm, 2.5 mm, 10mg), markers (CD20, HbA1c, BRCA1), COVID-19, gravida and para (G3P1011).
CLINICAL_CODE_RE = re.compile(
    r"""(?x)
    (?:[CTLS](?:[1-9]|1[0-2])(?:-[CTLS]?(?:[1-9]|1[0-2]))?)\b        # spine levels
    | T[12][Ww]?\b | T[0-4][a-c]?N[0-3][a-c]?M[01]\b                  # weighting, TNM
    | (?:A&)?O[xX][0-4](?:-[0-4])?\b                                  # orientation "A&Ox3", "OX1-2"
    | [Gg]\d{1,2}[Pp]\d{1,4}\b                                          # gravida and para "G3P1011", "g1p0"
    | V[1-6](?:-V[1-6])?\b | CD\d{1,3}\b | HbA1c\b | BRCA[12]\b | COVID-19\b | H\d{1,2}N\d{1,2}\b
    | [Cc]\d{1,2}[Dd]\d{1,2}\b | SVR\d{1,2}\b                            # chemotherapy cycle and day "C2D1", "SVR12"
    | \d{1,4}(?:\.\d{1,3})?\s?(?:mm|cm|m|ml|mL|cc|mg|g|kg|mcg|ug|L|Hz|kHz|MHz|T|kV|kVp|mAs|HU|bpm|mmHg|%)\b
    """
)

_AUX = frozenset(
    "is are was were does do did can could has have had will would should shall may might must am isn't aren't "
    "doesn't don't didn't wasn't weren't can't".split()
)
_WH = frozenset("what which where when who whom whose why how".split())
_IMPERATIVE = frozenset("name list describe identify show locate specify give state indicate determine count".split())
_SPLIT_RE = re.compile(r"[.?!;:\n]")
_FIRST_WORD_RE = re.compile(r"[A-Za-z']+")
#: Abbreviations whose "." does not end a sentence ("Dr. [NAME]'s scan", "e.g. a CT").
_ABBREVIATIONS = frozenset(
    "dr mr mrs ms mx prof st mt ft jr sr vs e.g eg i.e ie etc approx dept fig no nos vol pt pts ca cf al".split()
)
#: "No." is an abbreviation only before a number ("No. 5"); elsewhere it may be an answer ("No.").
_NUMBER_ABBREVIATIONS = frozenset({"no", "nos", "vol", "fig"})
_ABBR_WORD_RE = re.compile(r"([A-Za-z][A-Za-z.]{0,8})$")


def _is_abbreviation_dot(text: str, i: int) -> bool:
    """Is the "." at ``text[i]`` part of an abbreviation, initial or number rather than a sentence end?"""
    nxt = text[i + 1] if i + 1 < len(text) else ""
    if nxt and not nxt.isspace():
        return True  # "2.5 cm", "e.g.", "x-ray.jpg": a sentence-ending dot is followed by space or the end
    m = _ABBR_WORD_RE.search(text, max(0, i - 10), i)
    if not m:
        return False
    word = m.group(1)
    low = word.lower().rstrip(".")
    if low in _NUMBER_ABBREVIATIONS:
        rest = text[i + 1 :].lstrip()
        return rest[:1].isdigit() or rest[:1] == "#"
    if low in _ABBREVIATIONS:
        return True
    return len(word) == 1 and word.isupper()  # an initial: "J. Smith"


def _clauses(text: str) -> list[str]:
    """Split at sentence and clause punctuation, except the dots of abbreviations and numbers."""
    out: list[str] = []
    pos = 0
    for m in _SPLIT_RE.finditer(text):
        i = m.start()
        if text[i] == "." and _is_abbreviation_dot(text, i):
            continue
        out.append(text[pos:i])
        pos = i + 1
    out.append(text[pos:])
    return out


def _norm_word(w: str) -> str:
    # Cheap singularisation, only where the singular is a lexicon term, so
    # "nodules" and "nodule" count as the same content.
    for suf in ("es", "s"):
        if len(w) > len(suf) + 2 and w.endswith(suf) and w[: -len(suf)] in _TERMS_1:
            return w[: -len(suf)]
    return w


@lru_cache(maxsize=4096)
def clinical_terms(text: str) -> frozenset[str]:
    """The lexicon terms (single words and phrases, normalised) present in ``text``."""
    words = _WORD_RE.findall(text.lower())
    found: set[str] = set()
    for i, w in enumerate(words):
        n = _norm_word(w)
        if n in _TERMS_1:
            found.add(n)
        if i + 1 < len(words):
            bi = f"{w} {words[i + 1]}"
            if bi in _PHRASES:
                found.add(bi)
            if i + 2 < len(words):
                tri = f"{bi} {words[i + 2]}"
                if tri in _PHRASES:
                    found.add(tri)
    return frozenset(found)


def is_clinical_word(token: str) -> bool:
    """True when ``token`` is a lexicon word or qualifier (case-insensitive)."""
    t = token.lower()
    return t in CLINICAL_WORDS or _norm_word(t) in CLINICAL_WORDS


def question_form(text: str) -> str:
    """Classify the question form: ``yesno``, ``choice``, ``wh``, ``imperative`` or ``statement``.

    The clause carrying the question mark is classified when there is one
    (so "Patient [NAME]: is the lung clear?" is ``yesno``); ``choice`` is a
    yes/no-shaped question offering alternatives ("Is this CT or MRI?").
    The dots of abbreviations ("Dr.", "Mrs.", "St.", "e.g.", "vs.", "No. 5"),
    initials and decimals ("2.5 cm") do not end a clause.
    """
    if not isinstance(text, str):
        raise TypeError(f"question_form expects str, got {type(text).__name__}")
    clauses = [c for c in _clauses(text) if c.strip()]
    if not clauses:
        return "statement"
    target = clauses[-1]
    if "?" in text:
        # the clause that ends right before the first '?'
        head = text[: text.index("?")]
        parts = [c for c in _clauses(head) if c.strip()]
        if parts:
            target = parts[-1]
    # a leading framing phrase ("In this image, is ...") is skipped: look at the
    # words of the target clause, and of its last comma-separated part.
    candidates = [target] + ([target.rsplit(",", 1)[1]] if "," in target else [])
    for cand in candidates:
        words = [w.lower() for w in _FIRST_WORD_RE.findall(cand)]
        if not words:
            continue
        first = words[0]
        if first in _WH:
            return "wh"
        if first in _AUX:
            return "choice" if " or " in f" {' '.join(words)} " else "yesno"
        if first in _IMPERATIVE:
            return "imperative"
        if any(w in _WH for w in words[:3]):
            return "wh"
    return "statement"


@dataclass(frozen=True)
class ClinicalCheck:
    """Outcome of comparing a rewrite with its input (log-safe: clinical terms only)."""

    ok: bool
    retention: float
    missing: tuple[str, ...]
    form_before: str
    form_after: str
    added: tuple[str, ...] = ()  # terms the rewrite introduced (a hallucinated modality, say)


def term_retention(original: str, new: str) -> float:
    """Fraction of the clinical terms of ``original`` still present in ``new`` (1.0 if none)."""
    before = clinical_terms(original)
    if not before:
        return 1.0
    after = clinical_terms(new)
    return len(before & after) / len(before)


def check_clinical(original: str, new: str, *, min_retention: float = 1.0, allow_added: bool = True) -> ClinicalCheck:
    """Does ``new`` keep the clinical terms and the question form of ``original``?

    ``min_retention`` is the fraction of terms that must survive (default all).
    The question form must match exactly: a yes/no question that became a
    wh-question asks for a different answer. ``allow_added=False`` also
    rejects a rewrite that introduces clinical terms (an LLM adding "on this
    CT" changes the question as surely as dropping one); ``added`` lists them.
    """
    before = clinical_terms(original)
    after = clinical_terms(new)
    missing = tuple(sorted(before - after))
    added = tuple(sorted(after - before))
    retention = 1.0 if not before else len(before & after) / len(before)
    f0, f1 = question_form(original), question_form(new)
    ok = retention >= min_retention and f0 == f1 and (allow_added or not added)
    return ClinicalCheck(ok=ok, retention=retention, missing=missing, form_before=f0, form_after=f1, added=added)
