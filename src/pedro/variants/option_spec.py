"""The schema of a house-rule option: its type, allowed values and scope, and reading its value.

An option only rewrites ``Ruleset`` fields (its ``write``); the engine never sees option
names, so an option can do nothing the data model cannot say. Values are JSON-friendly
(``bool``, ``int``, ``str`` or ``None``) so that a game record's options rebuild exactly
the same rules. The options themselves are ``pedro.variants.option_table``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, TypeAlias

from pedro.i18n import N_, _, translate
from pedro.variants.constraints import CLASH
from pedro.variants.model import Ruleset

#: The value of an option as stored in a game record.
OptionValue: TypeAlias = bool | int | str | None


#: A value an option does not take.
BAD_VALUE = N_("invalid value {value} for option {name}; allowed: {allowed}")


class OptionError(ValueError):
    """An option name, value or combination that the rules do not allow.

    Made from an English ``template`` marked with ``N_`` and its ``fields``: the message is
    English (the API's and the records' language), and :meth:`translated` says it in the player's
    language, each field read back into its own template (a clash's problem, a value's allowed
    values). A combination the rules refuse (docs/rules.md §option-constraints) is ``CLASH``.
    """

    def __init__(self, template: str, /, **fields: object) -> None:
        self.template = template
        self.fields = {name: str(value) for name, value in fields.items()}
        super().__init__(template.format(**self.fields))

    @property
    def is_clash(self) -> bool:
        return self.template == CLASH

    def translated(self) -> str:
        """The message in the language in use (``pedro.i18n``)."""
        return _(self.template, **{name: translate(value) for name, value in self.fields.items()})


# ---------------------------------------------------------------------------
# the option specification


@dataclass(frozen=True)
class OptionSpec:
    """One house-rule option: its type, allowed values, scope and effect on a Ruleset."""

    name: str
    #: python type of the value: ``bool``, ``int`` or ``str`` (``str`` options take one of ``choices``)
    value_type: type[object]
    description: str
    #: the variant's value of this option (``None`` where the option is not a property of the rules)
    read: Callable[[Ruleset], OptionValue] = field(repr=False, compare=False)
    #: returns the ruleset with the option set to a valid value
    write: Callable[[Ruleset, OptionValue], Ruleset] = field(repr=False, compare=False)
    #: allowed values when restricted (strings for enum-like options)
    choices: tuple[OptionValue, ...] = ()
    nullable: bool = False
    minimum: int | None = None
    maximum: int | None = None
    #: a lower maximum a variant's own rules set (a bid's: the variant's maximum bid), which the
    #: constraints check (``variants.constraints``) and a variant's description gives
    variant_maximum: Callable[[Ruleset], int] | None = field(default=None, repr=False, compare=False)
    #: ids of the variants this option applies to; empty means every variant
    variants: tuple[str, ...] = ()
    #: where docs/rules.md describes the option (section, notes)
    reference: str = ""
    #: reads other text forms of the value (e.g. ``below_jack``); ``None`` when there are none
    text_form: Callable[[str], OptionValue] | None = field(default=None, repr=False, compare=False)
    #: words describing those other forms, appended to the allowed values
    text_form_help: str = ""

    def applies_to(self, variant_id: str) -> bool:
        return not self.variants or variant_id in self.variants

    def maximum_for(self, rules: Ruleset) -> int | None:
        """The highest value ``rules``' variant takes as its rules stand."""
        if self.variant_maximum is None or self.maximum is None:
            return self.maximum
        return min(self.maximum, self.variant_maximum(rules))

    def allowed_text(self) -> str:
        """The allowed values in words, for error messages and help (English, its parts marked)."""
        low, high = self.minimum, self.maximum
        if self.value_type is bool:
            text = N_("true or false")
        elif self.choices:
            text = N_("one of {choices}").format(choices=", ".join(str(c) for c in self.choices))
        elif low is not None and high is not None:
            text = N_("an integer from {low} to {high}").format(low=low, high=high)
        elif low is not None:
            text = N_("an integer of at least {low}").format(low=low)
        elif high is not None:
            text = N_("an integer of at most {high}").format(high=high)
        else:
            text = N_("an integer")
        if self.text_form_help:
            text = N_("{allowed}, or {more}").format(allowed=text, more=self.text_form_help)
        return N_("{allowed} or null").format(allowed=text) if self.nullable else text

    def parse(self, text: str) -> OptionValue:
        """Read a value from command-line text (``true``, ``7``, ``null``, ``difference`` ...)."""
        t = text.strip().lower()
        if self.nullable and t in _NULL_WORDS:
            return None
        if self.value_type is bool:
            if t in _TRUE_WORDS:
                return True
            if t in _FALSE_WORDS:
                return False
        elif self.value_type is int:
            number = _int_or_none(t)
            if number is not None:
                return self.check(number)
            if self.text_form is not None:
                return self.check(self.text_form(t))
        else:
            return self.check(t)
        raise self.bad_value(text)

    def check(self, value: object) -> OptionValue:
        """Validate (and normalise) a typed value, e.g. from a game record or a Python caller."""
        if value is None:
            if self.nullable:
                return None
            raise self.bad_value(value)
        if isinstance(value, str) and self.value_type is not str:
            return self.parse(value)
        if self.value_type is bool:
            if isinstance(value, bool):
                return value
            raise self.bad_value(value)
        if self.value_type is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise self.bad_value(value)
            if self.choices and value not in self.choices:
                raise self.bad_value(value)
            if (self.minimum is not None and value < self.minimum) or (
                self.maximum is not None and value > self.maximum
            ):
                raise self.bad_value(value)
            return int(value)
        # enum-like string option
        text = (value.value if isinstance(value, Enum) else str(value)).strip().lower().replace("-", "_")
        if text in self.choices:
            return text
        raise self.bad_value(value)

    def bad_value(self, value: object) -> OptionError:
        shown = "null" if value is None else repr(value) if isinstance(value, str) else str(value)
        return OptionError(BAD_VALUE, value=shown, name=self.name, allowed=self.allowed_text())


_TRUE_WORDS = frozenset({"true", "yes", "1", "on", "y", "t"})
_FALSE_WORDS = frozenset({"false", "no", "0", "off", "n", "f"})
_NULL_WORDS = frozenset({"null", "none"})


def option_text(value: object) -> str:
    """An option value as it is written (the form :meth:`OptionSpec.parse` reads back).

    >>> [option_text(v) for v in (None, True, False, 7, "up")]
    ['null', 'true', 'false', '7', 'up']
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _int_or_none(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None


def enum_choices(enum: type[Enum]) -> tuple[str, ...]:
    return tuple(str(member.value) for member in enum)


def plain(value: object) -> OptionValue:
    """A field value as an option value: enums become their string."""
    if isinstance(value, Enum):
        return str(value.value)
    if value is None or isinstance(value, bool | int | str):
        return value
    raise TypeError(f"not an option value: {value!r}")


def as_int(value: OptionValue) -> int:
    assert isinstance(value, int) and not isinstance(value, bool)
    return value


def as_bool(value: OptionValue) -> bool:
    assert isinstance(value, bool)
    return value


def as_str(value: OptionValue) -> str:
    assert isinstance(value, str)
    return value


# ---------------------------------------------------------------------------
# builders for the common shapes of option


def field_option(
    name: str,
    value_type: type[object],
    description: str,
    *,
    enum: type[Enum] | None = None,
    nullable: bool = False,
    minimum: int | None = None,
    maximum: int | None = None,
    variant_maximum: Callable[[Ruleset], int] | None = None,
    variants: tuple[str, ...] = (),
    reference: str = "",
    field_name: str | None = None,
) -> OptionSpec:
    """An option that sets exactly one Ruleset field (``field_name``, by default the option's name)."""
    attr = field_name or name

    def read(rules: Ruleset) -> OptionValue:
        return plain(getattr(rules, attr))

    def write(rules: Ruleset, value: OptionValue) -> Ruleset:
        changes: dict[str, Any] = {attr: enum(value) if enum is not None and value is not None else value}
        return replace(rules, **changes)

    return OptionSpec(
        name=name,
        value_type=str if enum is not None else value_type,
        description=description,
        read=read,
        write=write,
        choices=enum_choices(enum) if enum is not None else (),
        nullable=nullable,
        minimum=minimum,
        maximum=maximum,
        variant_maximum=variant_maximum,
        variants=variants,
        reference=reference,
    )


def face_option(
    name: str,
    read: Callable[[Ruleset], bool],
    write: Callable[[Ruleset, bool], Ruleset],
    description: str,
    *,
    variants: tuple[str, ...] = (),
    reference: str = "",
) -> OptionSpec:
    """An ``up``/``down`` option backed by a face-up boolean."""
    return OptionSpec(
        name=name,
        value_type=str,
        description=description,
        read=lambda rules: "up" if read(rules) else "down",
        write=lambda rules, value: write(rules, value == "up"),
        choices=("up", "down"),
        variants=variants,
        reference=reference,
    )
