"""The word lists clinx ships read as their headers say: '#' opens a comment only at a word's start."""

from clinx.text.lexicons import _data, clinical_vocab, is_clinical_term


def test_every_term_on_a_line_counts_after_a_term_with_a_number_sign():
    # "hd#3" (hospital day 3) is a term; the shorthand after it on the same line ("tx", "ddx", "shx", "px") was once
    # read as a comment and lost
    line = next(ln for ln in _data("clinical_vocab.txt").splitlines() if ln.startswith("hd pod hd#3"))
    words = line.split()
    assert words.index("tx") > words.index("hd#3")
    assert all(is_clinical_term(w) for w in words)


def test_a_comment_after_a_blank_is_no_term():
    vocab = clinical_vocab()
    comments = [ln for ln in _data("clinical_vocab.txt").splitlines() if ln.startswith("#")]
    assert comments and "one" not in vocab and "comment" not in vocab
