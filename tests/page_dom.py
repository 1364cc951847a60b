"""The DOM headless Chromium built from a page (utils/browser.dump_dom), as a tree the tests can query.

Chromium serialises its DOM with every element closed but the void ones, so a stack over html.parser rebuilds
the very tree the browser held: an element the page's text smuggled in would be here as an element, and text
the page escaped is here as text.
"""
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Element:
    def __init__(self, tag, attrs, parent=None):
        self.tag, self.attrs, self.parent, self.children = tag, dict(attrs), parent, []

    def text(self):
        return "".join(child if isinstance(child, str) else child.text() for child in self.children)

    def iter(self):
        yield self
        for child in self.children:
            if isinstance(child, Element):
                yield from child.iter()

    def find_all(self, tag=None, cls=None, **attrs):
        return [e for e in self.iter() if (tag is None or e.tag == tag)
                and (cls is None or cls in (e.attrs.get("class") or "").split())
                and all(e.attrs.get(name.rstrip("_")) == value for name, value in attrs.items())]

    def find(self, tag=None, cls=None, **attrs):
        found = self.find_all(tag, cls, **attrs)
        assert found, f"no <{tag or '*'} class={cls} {attrs}> in the DOM"
        return found[0]


class TreeBuilder(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = self.current = Element("#document", {})

    def handle_starttag(self, tag, attrs):
        element = Element(tag, attrs, self.current)
        self.current.children.append(element)
        if tag not in VOID:
            self.current = element

    def handle_startendtag(self, tag, attrs):
        self.current.children.append(Element(tag, attrs, self.current))

    def handle_endtag(self, tag):
        node = self.current
        while node is not self.root and node.tag != tag:
            node = node.parent
        if node is not self.root:
            self.current = node.parent

    def handle_data(self, data):
        self.current.children.append(data)


def parse(html):
    builder = TreeBuilder()
    builder.feed(html)
    builder.close()
    return builder.root
