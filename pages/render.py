"""The one template engine of the pages: Jinja2 over pages/templates/, every value escaped unless marked safe
(autoescape on for every template, whatever its name), an undefined name an error rather than an empty string."""
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from pages.code_view import STYLE
from utils.text_files import write_atomically

TEMPLATES = Path(__file__).with_name("templates")
ENVIRONMENT = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=True, undefined=StrictUndefined,
                          trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)


def render(template, **context):
    return ENVIRONMENT.get_template(template).render(code_style=STYLE, **context)


def write_page(path, template, **context):
    """Render the template into `path`, atomically (WriteError names the path when it cannot be written)."""
    write_atomically(path, render(template, **context))
    return str(path)
