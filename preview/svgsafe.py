"""The SVG a template writes, made safe to show inline in the preview page.

A game folder is data (docs/security.md), but its templates write SVG, and SVG shown
inline in a page is markup of that page: a ``<style>`` restyles the whole page, an
``<feImage>`` or a ``url(http://...)`` fetches from anywhere, a link to ``java&#x09;script:``
runs in the page's origin when clicked.  ``/api/svg`` serves each design through
:func:`clean_svg`, an allow-list that keeps the plain drawing the toolchain writes and
nothing else, so that no client, whatever it does with the text, gets more than a drawing;
the page's own script (``static/preview.js``, ``cleanSvg``) applies the same rules again,
and the server's Content-Security-Policy forbids what both might miss.

What stays:

- elements of the SVG namespace in :data:`ELEMENTS` (shapes, text, groups, gradients,
  clipping, masks, patterns, ``use``, markers, filter primitives other than ``feImage``);
  an ``<a>`` becomes a ``<g>`` (its drawing stays, its link goes); any other element
  (``script``, ``style``, ``foreignObject``, ``feImage``, ``animate``, ``set`` ...) is
  dropped with everything in it, and so are comments and processing instructions;
- attributes in no namespace, ``xlink:href``, ``xml:space`` and ``xml:lang``, except
  event handlers (``on*``) and ``class`` (the page's style sheet would match it), and on
  the outermost ``<svg>`` its ``id``, ``style`` and ``overflow`` (which would place the card
  over the rest of the page);
- a reference (``href``, ``xlink:href``, ``src``) only to something in the same drawing
  (``#id``), or, on an ``<image>``, to the picture the build placed (``/pictures/DIGEST``,
  from its ``data-pnp-picture``); values are compared with every space and control
  character taken out and in lower case (``java&#x09;script:`` is ``javascript:``);
- a value that CSS reads (``style`` and every presentation attribute) only when its
  functions are plain ones (colours, transforms, ``calc``) and its ``url(...)`` name
  something in the same drawing: no ``url(http...)``, ``image-set()``, ``@import``,
  ``expression``, backslash escapes or comments.
"""

from __future__ import annotations

import re
import unicodedata

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
XML_NS = "http://www.w3.org/XML/1998/namespace"

#: The elements a drawing may hold (local names in the SVG namespace).
ELEMENTS = frozenset("""
    svg g defs rect circle ellipse line polyline polygon path text tspan image title desc
    clipPath linearGradient radialGradient stop mask pattern use symbol marker
    filter feBlend feColorMatrix feComponentTransfer feComposite feConvolveMatrix feDiffuseLighting
    feDisplacementMap feDistantLight feDropShadow feFlood feFuncA feFuncB feFuncG feFuncR
    feGaussianBlur feMerge feMergeNode feMorphology feOffset fePointLight feSpecularLighting
    feSpotLight feTile feTurbulence
""".split())
#: Elements whose drawing stays, as a group, without what made them more than a group.
AS_GROUP = frozenset({"a"})
#: Attributes that name a resource.
REFERENCES = frozenset({"href", "src"})
#: CSS functions a value may call besides ``url(#...)`` ("": a bare parenthesis, as in calc()).
FUNCTIONS = frozenset({"", "rgb", "rgba", "hsl", "hsla", "hwb", "lab", "lch", "oklab", "oklch", "color",
                       "matrix", "translate", "translatex", "translatey", "scale", "scalex", "scaley",
                       "rotate", "skewx", "skewy", "calc", "min", "max", "clamp"})
#: Attributes the outermost ``<svg>`` may not keep: they would take it out of its place on the page.
ROOT_DROPPED = frozenset({"id", "style", "overflow", "class"})
PICTURE = re.compile(r"[0-9a-f]{32}")
_FUNCTION = re.compile(r"([a-z0-9_-]*)\(")
_BAD_CSS = ("\\", "/*", "@import", "expression", "javascript:", "vbscript:", "data:")
#: What the page shows when the text is not a drawing it can read.
UNREADABLE = "<unreadable-svg/>"
_INVISIBLE = ("Cc", "Cf", "Zs", "Zl", "Zp")


def _strip(value: str) -> str:
    """``value`` with every space, control and format character taken out."""
    return "".join(c for c in value if not (c.isspace() or unicodedata.category(c) in _INVISIBLE))


def squeeze(value: str) -> str:
    """``value`` with every space, control and format character taken out, in lower case: what a browser
    may read of it (``java&#x09;script:``, `` javascript:`` and ``JaVaScRiPt:`` are all ``javascript:``)."""
    return _strip(value).lower()


def local_reference(value: str) -> str | None:
    """``value`` as a reference to something in the same drawing (``#id``, with no space or control
    character left in it), or None."""
    s = _strip(value)
    return s if s.startswith("#") and len(s) > 1 else None


def picture_reference(spec: str | None) -> str | None:
    """The page's address of the picture a ``data-pnp-picture`` value names, or None."""
    parts = (spec or "").split(" ")
    return f"/pictures/{parts[1]}" if len(parts) > 1 and PICTURE.fullmatch(parts[1]) else None


def safe_css(value: str) -> bool:
    """Whether a value CSS reads (``style``, a presentation attribute) loads nothing and runs nothing:
    only plain functions, and ``url()`` only to something in the same drawing."""
    s = squeeze(value)
    if any(bad in s for bad in _BAD_CSS):
        return False
    for m in _FUNCTION.finditer(s):
        name = m.group(1)
        if name == "url":
            target = s[m.end():].lstrip("\"'")
            if not target.startswith("#"):
                return False
        elif name not in FUNCTIONS:
            return False
    return True


def _clean_attributes(el, root: bool, image: bool) -> None:
    for name in list(el.attrib):
        value = el.attrib[name]
        ns, local = (name[1:].split("}", 1) if name.startswith("{") else ("", name))
        keep = True
        if ns not in ("", XLINK_NS, XML_NS) or (ns == XLINK_NS and local != "href") or \
                (ns == XML_NS and local not in ("space", "lang")):
            keep = False
        elif local.lower().startswith("on") or local == "class" or (root and local in ROOT_DROPPED):
            keep = False
        elif local.lower() in REFERENCES:
            if image:
                keep = False  # set below from data-pnp-picture
            else:
                ref = local_reference(value)
                keep = ref is not None
                if keep:
                    el.attrib[name] = ref
        elif not local.startswith("data-") and not safe_css(value):
            keep = False
        if not keep:
            del el.attrib[name]
    if image:
        ref = picture_reference(el.attrib.get("data-pnp-picture"))
        if ref is not None:
            el.attrib["href"] = ref
    return None


def _clean_tree(root) -> None:
    from lxml import etree

    stack = [root]
    while stack:
        el = stack.pop()
        for child in list(el):
            if not isinstance(child.tag, str):  # a comment, a processing instruction, an entity
                _remove(child)
                continue
            qname = etree.QName(child)
            local = qname.localname
            if qname.namespace == SVG_NS and local in AS_GROUP:
                child.tag = f"{{{SVG_NS}}}g"
                local = "g"
            if qname.namespace != SVG_NS or local not in ELEMENTS:
                _remove(child)
                continue
            if local == "image" and picture_reference(child.attrib.get("data-pnp-picture")) is None:
                _remove(child)
                continue
            _clean_attributes(child, False, local == "image")
            stack.append(child)


def _remove(node) -> None:
    """Take ``node`` and all in it out of its parent, keeping the text that follows it."""
    parent = node.getparent()
    tail = node.tail
    if tail:
        previous = node.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
    parent.remove(node)


def clean_svg(text: str) -> str:
    """The drawing of ``text`` (an SVG document) and nothing else, as SVG text; :data:`UNREADABLE`
    when it is not an SVG document."""
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False,
                             remove_comments=True, remove_pis=True, huge_tree=False)
    try:
        root = etree.fromstring(text.encode("utf-8"), parser)
    except (etree.XMLSyntaxError, ValueError):
        return UNREADABLE
    if root is None or etree.QName(root).namespace != SVG_NS or etree.QName(root).localname != "svg":
        return UNREADABLE
    _clean_attributes(root, True, False)
    _clean_tree(root)
    etree.cleanup_namespaces(root)
    return etree.tostring(root, encoding="unicode")
