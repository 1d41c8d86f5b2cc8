import pytest

from model.lang import LangError, Language, WordSpec


@pytest.fixture
def requires():
    words = {c: WordSpec(c, count="optional") for c in ("green", "blue")}
    words["any"] = WordSpec("any", count="optional")
    return Language("requires", words, ("green", "blue"))


@pytest.fixture
def effect():
    return Language("effect", {"limit": WordSpec("limit", args=["int"]), "reset": WordSpec("reset"),
                               "victims": WordSpec("victims", count="required",
                                                   params={"color": "color", "number": "int"})},
                    ("green", "blue"))


def test_condition_terms_and_counts(requires):
    expr = requires.parse("1 blue + 2 any")
    assert [(t.word, t.count) for t in expr] == [("blue", 1), ("any", 2)]
    assert str(expr) == "blue + 2 any"


def test_separators_and_case(requires):
    assert requires.parse("Green, 2 ANY").words() == ["green", "any"]
    assert requires.parse("green and blue").words() == ["green", "blue"]
    assert not requires.parse("  ")


def test_unknown_word_lists_known_words(requires):
    with pytest.raises(LangError) as exc:
        requires.parse("1 purple")
    assert str(exc.value) == "unknown word 'purple' in '1 purple'; known words: any, blue, green"


def test_arguments_are_typed(effect):
    assert effect.parse("limit 2").terms[0].args == (2,)
    with pytest.raises(LangError, match="'limit' expects a whole number, got 'two'"):
        effect.parse("limit two")
    with pytest.raises(LangError, match="'limit' takes 1 value"):
        effect.parse("limit")
    with pytest.raises(LangError, match="'reset' takes no count"):
        effect.parse("2 reset")


def test_keyword_parameters(effect):
    t = effect.parse("5 victims color=green").terms[0]
    assert (t.count, t.kw("color"), t.kw("number")) == (5, "green", None)
    with pytest.raises(LangError, match="unknown colour 'teal'"):
        effect.parse("5 victims color=teal")
    with pytest.raises(LangError, match=r"has no parameter 'size' \(accepted: color, number\)"):
        effect.parse("5 victims size=3")
    with pytest.raises(LangError, match="needs a count first"):
        effect.parse("victims color=green")
