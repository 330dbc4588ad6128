"""The secrecy check's decisions: whether and which player is asked (rule 6), the options shown to the
decider (rule 7), the announced move text of a public decision (rules 4 and 5) and the 'shown' text of
a secret one (rule 8)."""
from __future__ import annotations

import attrs

from rulewright.dsl import ast
from rulewright.interpreter.check.secrecy.messages import (HINT_ASKED, HINT_AUTOMATIC, HINT_EACH, HINT_MOVE_TEXT,
                                                          HINT_OPTIONS, HINT_SHOWN)
from rulewright.interpreter.check.secrecy.points import PUBLIC, Analysis, Point, Val, join_points
from rulewright.interpreter.engine.builtin_names import ME


class Decisions:
    """The statements that ask a player (choose, choose:, each ... secretly choose); a part of
    SecrecyCheck (check.py)."""

    def asked(self, span, who: str, by, st: Point, fr: Analysis):
        """Rule 6: whether a player is asked, and which one, is public."""
        fr.asks(who)
        self.note_locals(span, st)
        self.conditional(6, span, st, f"player {who} is asked here", HINT_ASKED)
        if by is not None:
            which = self.label(by, st)
            if which:
                self.report(6, span, f"which player is asked here depends on "
                            f"{self.secret(which, self.direct(by, st))}", HINT_ASKED)

    def visit_Choose(self, s, st, fr):
        self.run_calls(s.source, st, fr)  # the list is worked out before the player is asked
        who = self.key(s.by, st) if s.by is not None else ME
        self.asked(s.span, who, s.by, st, fr)
        self.choice(s, who, st, secret=s.secret or s.shown is not None)

    def choice(self, c: ast.Choose, who: str, st: Point, secret: bool):
        source = self.label(c.source, st)
        roots = self.roots(c.source, st)
        key = self.fresh_key(c.var, st)
        inner = st.bound(c.var, Val(source, source, roots, key))
        where = self.label(c.where, inner)
        # rule 7: the options, their texts, the guards are shown to the decider only
        parts = [(c.source, source, st), (c.where, where, inner), (c.optional, self.label(c.optional, st), st),
                 (c.prompt, self.label(c.prompt, st), st)]  # the prompt is shown to the decider only
        if secret:
            parts.append((c.text, self.label(c.text, inner), inner))
        for node, lab, at in parts:
            bad = self.unseen_by(lab, who)
            if node is not None and bad:
                what = f"the prompt of player {who}'s decision shows" if node is c.prompt else \
                    f"the options offered to player {who} show"
                self.report(7, node.span, f"{what} "
                            f"{self.secret(bad, self.direct(node, at))}", HINT_OPTIONS.format(who=who))
                break
        if c.automatic:
            # rule 6: one legal option is taken without asking, so everyone learns whether there were more:
            # any secret in the number of options leaks, the decider's own too
            count = self.length(c.source, st) | where
            if count:
                near = self.direct(c.source, st) | self.direct(c.where, inner)
                self.report(6, c.span, f"whether player {who} is asked here ('automatic': only when two "
                            f"options or more are legal) depends on {self.secret(count, near)}", HINT_AUTOMATIC)
        chosen = st.bound(c.var, Val(key=key))
        if not secret:
            # rule 4: the move text is announced; it may show the value chosen
            for node in (c.text, c.optional):
                shown = self.label(node, chosen)
                if node is not None and shown:
                    self.report(4, node.span, f"the move text of this public decision shows "
                                f"{self.secret(shown, self.direct(node, chosen))}", HINT_MOVE_TEXT)
                    break
            val = Val(PUBLIC, PUBLIC, roots, key, c.var if (source | where) else None)
        else:
            if c.shown is not None:
                shown = self.label(c.shown, chosen)
                if shown:
                    self.report(8, c.shown.span, f"the 'shown' text of this secret decision shows "
                                f"{self.secret(shown, self.direct(c.shown, chosen))}", HINT_SHOWN)
            mine = self.tag(("own", who, ("choice", c.var)))
            val = Val(mine, mine, roots, key)
        st.env[c.var] = val

    def visit_ChooseBlock(self, s, st, fr):
        who = self.key(s.by, st) if s.by is not None else ME
        self.asked(s.span, who, s.by, st, fr)
        outs = []
        # a secret course of action: what runs next depends on the decider's own choice
        chosen = self.tag(("own", who, ("choice", "course of action"))) if s.secret else PUBLIC
        prompt = self.unseen_by(self.label(s.prompt, st), who)  # shown to the decider only
        if prompt:
            self.report(7, s.prompt.span, f"the prompt of player {who}'s decision shows "
                        f"{self.secret(prompt, self.direct(s.prompt, st))}", HINT_OPTIONS.format(who=who))
        for alt in s.alternatives:
            guard = self.unseen_by(self.label(alt.guard, st), who)
            near = PUBLIC
            if guard:
                near = self.direct(alt.guard, st)
                self.report(7, alt.guard.span, f"the options offered to player {who} show "
                            f"{self.secret(guard, near)}", HINT_OPTIONS.format(who=who))
            # the decider's own secrets in a guard are told by their own choice; another's, reported
            # above, once
            branch = st.under(guard | chosen, near)
            if guard:
                branch.quiet = branch.pc
            self.block(alt.body, branch, fr)
            outs.append(branch)
        self.replace(st, join_points(st, outs))

    def visit_ChooseEach(self, s, st, fr):
        self.run_calls(s.players, st, fr)
        who = self.fresh_key(s.player_var, st)
        listed = self.label(s.players, st)
        fr.asks(who)
        self.note_locals(s.span, st)
        self.conditional(6, s.span, st, f"player {who} is asked here", HINT_ASKED)
        if listed:
            self.report(6, s.span, f"which players are asked here depends on "
                        f"{self.secret(listed, self.direct(s.players, st))}", HINT_EACH)
        runs = self.condition(s.players, st)

        def bind(inner: Point):
            inner.env[s.player_var] = Val(key=who)  # who is asked is public: they are seen deciding
            self.run_calls(s.choice.source, inner, fr)  # each player's list
            # 'each ... secretly choose' is always secret; in a window ('may'), whether a player is asked is
            # told to them alone, and whether they answered shows in what their answer does
            choice = attrs.evolve(s.choice, automatic=False) if s.window else s.choice
            self.choice(choice, who, inner, secret=True)
        self.loop(s.body, st, fr, lambda now: runs, bind)
