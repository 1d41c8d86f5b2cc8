"""Fold-up nets: the solid's measures, both layouts, tabs, placing, and folding back up."""

import math

import pytest

from generator.sheets import nets

LOONEY = nets.pyramid(25.4, 44.45)
FLAT = nets.pyramid(60.0, 20.0)


def _area(points) -> float:
    return abs(sum(p[0] * q[1] - q[0] * p[1] for p, q in zip(points, points[1:] + points[:1]))) / 2


def _inside(point, polygon) -> bool:
    x, y = point
    hit = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def test_solid_measures():
    a, h = 25.4, 44.45
    assert LOONEY.slant == pytest.approx(math.sqrt(h ** 2 + (a / 2) ** 2))
    assert LOONEY.lateral_edge == pytest.approx(math.sqrt(h ** 2 + a ** 2 / 2))
    assert LOONEY.apex_angle + 2 * LOONEY.base_angle == pytest.approx(180)
    assert LOONEY.face_tilt == pytest.approx(math.degrees(math.atan(h / (a / 2))))
    assert LOONEY.fan_angle == pytest.approx(4 * LOONEY.apex_angle)
    # a regular half-octahedron has 109.47 degree dihedrals and 60 degree faces
    octa = nets.pyramid(1.0, 1 / math.sqrt(2))
    assert octa.apex_angle == pytest.approx(60)
    assert octa.dihedral == pytest.approx(109.4712, abs=1e-3)
    assert LOONEY.scaled(4 / 7).apex_angle == pytest.approx(LOONEY.apex_angle)
    with pytest.raises(ValueError):
        nets.pyramid(0, 10)


@pytest.mark.parametrize("pyr", [LOONEY, FLAT, LOONEY.scaled(4 / 7)])
@pytest.mark.parametrize("layout", ["fan", "fan-closed", "cross"])
def test_every_net_folds_back_into_its_pyramid(pyr, layout):
    net = nets.cross_net(pyr) if layout == "cross" else nets.fan_net(pyr, base=layout == "fan-closed")
    for f in net.faces:
        left, right, apex = f.points
        assert nets.distance(left, right) == pytest.approx(pyr.base)
        assert nets.distance_to_line(apex, left, right) == pytest.approx(pyr.slant)
        assert nets.distance(apex, left) == pytest.approx(pyr.lateral_edge)
        assert nets.angle_at(apex, left, right) == pytest.approx(pyr.apex_angle)
    solid = net.fold()
    assert solid.closure < 1e-6
    assert solid.height == pytest.approx(pyr.height, abs=1e-6)
    assert solid.base_edges == pytest.approx([pyr.base] * 4)
    assert solid.diagonals == pytest.approx((pyr.base * math.sqrt(2),) * 2)
    assert solid.lateral_edges == pytest.approx([pyr.lateral_edge] * 4)


@pytest.mark.parametrize("layout", ["fan", "fan-closed", "cross"])
def test_outline_encloses_every_piece_without_overlaps(layout):
    net = nets.cross_net(LOONEY) if layout == "cross" else nets.fan_net(LOONEY, base=layout == "fan-closed")
    outline = list(net.outline)
    for piece in net.pieces:
        assert _inside(piece.centroid, outline), piece.kind
    # the pieces tile the inside of the cut line exactly: no overlap, no gap
    assert net.area == pytest.approx(sum(_area(list(p.points)) for p in net.pieces), rel=1e-9)
    expected_folds = {"fan": 4, "fan-closed": 8, "cross": 8}[layout]
    assert len(net.folds) == expected_folds
    assert len(net.tabs) == {"fan": 1, "fan-closed": 4, "cross": 4}[layout]


def test_seam_tab_stays_hidden_under_the_face_it_is_glued_to():
    net = nets.fan_net(LOONEY)
    base_end, out_base, out_apex, apex = net.tabs[0].points
    assert apex == net.apex
    # the tab's angles are smaller than the face's at the apex and at the base corner
    assert nets.angle_at(apex, base_end, out_apex) < LOONEY.apex_angle
    assert nets.angle_at(base_end, apex, out_base) < LOONEY.base_angle
    depth = nets.distance_to_line(out_base, base_end, apex)
    assert depth == pytest.approx(nets.tab_depth(LOONEY))
    assert nets.tab_depth(nets.pyramid(5, 9)) == nets.TAB_MIN
    assert nets.tab_depth(nets.pyramid(100, 9)) == nets.TAB_MAX


def test_fan_is_compact_for_tall_pyramids():
    fan, cross = nets.fan_net(LOONEY), nets.cross_net(LOONEY)
    assert fan.width * fan.height < 0.35 * cross.width * cross.height
    assert (round(fan.width, 1), round(fan.height, 1)) == (84.2, 47.9)
    assert (round(cross.width, 1), round(cross.height, 1)) == (117.9, 117.9)
    tight = fan.tightest()
    assert tight.width * tight.height <= fan.width * fan.height + 1e-9
    assert tight.bbox[:2] == pytest.approx((0, 0), abs=1e-9)
    assert tight.fold().height == pytest.approx(44.45)


def test_placing_a_net():
    net = nets.fan_net(LOONEY).fitted(91, 54, 1.0)
    x0, y0, x1, y1 = net.bbox
    assert (x0 + x1) / 2 == pytest.approx(45.5) and (y0 + y1) / 2 == pytest.approx(27)
    assert net.rotated(33, (10, 5)).fold().height == pytest.approx(44.45)
    with pytest.raises(ValueError, match="does not fit a 80 x 54 mm box"):
        nets.fan_net(LOONEY).fitted(80, 54)


def test_face_frames_put_marks_upright_near_the_base():
    net = nets.fan_net(LOONEY)
    for f in net.faces:
        pips = f.row(3, 5.0, 5.3)
        assert len(pips) == 3
        for p in pips:
            assert nets.distance_to_line(p, f.p0, f.p1) == pytest.approx(5.0)
            assert _inside(p, list(f.points))
        assert nets.distance(pips[0], pips[2]) == pytest.approx(10.6)
        assert f.width_at(0) == pytest.approx(LOONEY.base) and f.width_at(LOONEY.slant) == pytest.approx(0)
    # the middle of the fan stands upright: its face's base edge runs left to right
    assert net.faces[1].angle == pytest.approx(-net.faces[2].angle)


def test_svg_helpers():
    assert nets.svg_points([(0, 0), (1.5, 2)]) == "0.000,0.000 1.500,2.000"
    assert nets.path([(0, 0), (1, 0), (1, 1)]) == "M0.000,0.000 L1.000,0.000 L1.000,1.000 Z"
    assert nets.polar(0, 0, 2, 90) == pytest.approx((0, 2))
    assert nets.direction((0, 0), (-1, 0)) == pytest.approx(0)  # turned to read upright
    assert nets.direction((0, 0), (-1, 0), upright=False) == pytest.approx(180)
