"""The secrecy check: where a secret could reach a player who may not see it (an information-flow
analysis; "flow" in a game engine means the turn order, hence the name).

The checker's last pass (``rulewright validate``). It follows every value of the rules from where it
is read to where it goes, with a *label*: the set of secrets it depends on. A label is a frozenset of
tags, the empty set being public:

- ``("hidden", v)``  a ``hidden`` variable, a shared ``secret`` variable, or a secret ``player var``
  read whole (``hand``: everyone's values): nobody may know it;
- ``("own", k, v)``  the secret ``player var`` v of the player the rules name ``k`` (``me.hand``,
  ``p.hand``, ``hand[p]``); ``v`` is ``("choice", c)`` for the value chosen in a secret decision;
- ``("item", r, f)``  a face-down field f of a record r (``record bid(amount secret to owner)``).

Player keys are the text of the player expression after substitution: ``me``; a loop, quantifier or
decision variable's name; for a parameter, the caller's key of a plain-name argument, else the
argument's text; any other expression's text. ``len()`` of a variable's list is public (views show
counts), so a ``for`` over ``p.hand`` runs under a public condition; ``revealed(e)`` is public (and
``revealed(x)`` of a local, evaluated unconditionally, makes x public from there on); ``reveal x``
makes a local public from there on, ``reveal v``/``reveal p.v`` the variable to the end of the block
(and in the procedures called there); ``for p in players: reveal p.v`` reveals v (every entry) after
the loop, to the end of the block the loop stands in. A report a procedure's body gives only because
of a secret argument is made at the call's argument, where the secret enters, naming the procedure
and the line inside it. The value chosen in a public decision is public (the move
announces it); in a secret one, it is the decider's secret.

Locals are followed statement by statement (their label, the label of their length, the variables
they are part of); the branches of an ``if`` are joined, loops run twice. A ``match`` depends on its
subject and every pattern (or condition) it tests, and on its arms, as ``if ... else`` does. A
``def`` is worked out with its arguments (its ``let`` lines bind their value for the rest of it,
with the player key of that value), a procedure once per context (its arguments, the variables
revealed), and its summary (what it returns, whom it asks, what it does that everyone sees) is used
at the call: a secret condition deciding whether it runs is reported there. A procedure called
inside a statement's own expression (``if roll(p) > 3:``, ``x = f(a) + g(b)``) runs at that
statement, before the rest of the expression, left to right (a call in its arguments first), under
the statement's condition (an ``elif``'s under the conditions before it; a ``while`` condition's
again after each round, under the condition); what it returns flows into the expression. Names come
from the symbol table (interpreter/check/symbols.py). A secret condition is reported once per block, at
the first thing it decides that everyone sees; a message names the secret the expression reads
itself if there is one, else the first met.

The rules it applies (each message names the sink and the secret):

 1. Public variable: a store (``=``, ``+=``, ``-=``, ``add``, ``remove``, ``move``, ``draw``, a field
    or an item; through a local taken from a variable too) into a public variable, or a field or
    item of one, of a value computed from a secret, or into an entry chosen by a secret; ``move`` and
    ``remove`` with a public side show the item moved. Writes into secret or hidden places are never
    reported.
 2. Implicit flow: a write to a public variable, a public ``log``, a ``reveal``, ``end game``,
    ``win``, ``turn p``, a ``step``, a ``shuffle`` of a public list, or a call of a procedure doing one of these, under an ``if``/``while``/
    ``repeat`` condition, a ``for`` over a list of secret length, or a guard, depending on a secret;
    also the value of ``win`` and ``turn``.
 3. Log line: a public ``log`` shows a secret; ``log ... to X`` may show X's own secrets only, and
    who X is must not depend on a secret.
 4. Move text of a public decision: its ``as`` and ``optional`` texts show a secret other than the
    chosen value itself (which the move announces).
 5. Announced then kept secret: a public decision among options drawn from a secret, whose chosen
    value (or a field or item of it, in the same procedure or one it is passed to) is then stored
    into a secret or hidden variable.
 6. Decision existence: whether a player is asked (a ``choose``, a ``choose:``, an ``each ...
    secretly choose``, a call of a procedure that asks) depends on a secret; so does which player is
    asked, or the list of an ``each``. A ``choose ... automatic`` (one legal option taken without
    asking) is asked or not as the number of its options says: any secret in that number (the list's
    length, the ``where``), the decider's own too, leaks.
 7. Options shown to the decider: a decision's list, ``where``, ``optional`` text, alternative guards,
    ``prompt`` (and ``as`` text when secret) show a secret other than the decider's own (face-down fields are
    let through: their owner is not known here).
 8. Shown text: the ``shown`` text of a secret decision shows a secret other than the chosen value.
 9. Reveal text: the ``as`` text of ``reveal`` shows a secret other than the value revealed.
10. End, teams, ranking: an ``end when`` condition, ``teams``, a ``rank by`` key (or, without
    ``rank by``, the ``score`` the outcome ranks by), unless revealed at the start of ``scoring:``,
    depend on a secret.
11. Observation: an ``observe:`` entry shows its player ``me`` a secret other than ``me``'s own.

Known limits: implicit flows through ``break``/``return`` (what runs after them); the length of a
hidden or secret list changed under a secret condition or chosen by one (a record printed whole in a
text shows its face-down fields as '?' at run time); a face-down field read by its owner (but for ``log ... to
b.owner``); ``log ... to p`` inside a
procedure called under another player's secret; two spellings of one player are two players.

Its modules: points.py (what is known at a point of a block), labels.py (expressions), statements.py,
calls.py (procedure calls), decisions.py, messages.py (the words), check.py (one run over a file).
"""
from __future__ import annotations

from rulewright.interpreter.check.secrecy.check import secrecy_diagnostics

__all__ = ["secrecy_diagnostics"]
