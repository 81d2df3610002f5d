"""The shared input checks in rulescore.errors name the input, the place and what is allowed."""

import pytest

from rulescore.errors import RulesError, require_faces


def test_faces_are_kept_in_order():
    assert require_faces("cover dice", [6, 1, 3], 6, max_length=5) == (6, 1, 3)
    assert require_faces("cover dice", (), 6, max_length=5) == ()


@pytest.mark.parametrize("values, message", [
    ([1, 7], "cover dice: die 2 must be a d6 face from 1 to 6, got 7"),
    ([0], "cover dice: die 1 must be a d6 face from 1 to 6, got 0"),
    ([True], "cover dice: die 1 must be a d6 face from 1 to 6, got True"),
    ([2.0], "cover dice: die 1 must be a d6 face from 1 to 6, got 2.0"),
    ("66", "cover dice must be a list of d6 faces, got '66'"),
    ([1] * 6, "cover dice must hold at most 5 d6 faces, got 6"),
])
def test_a_wrong_face_is_named_by_its_place(values, message):
    with pytest.raises(RulesError) as caught:
        require_faces("cover dice", values, 6, max_length=5)
    assert str(caught.value) == message
