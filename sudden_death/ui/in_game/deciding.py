"""Which screen asks the player's decision now: the coin, the side, the snap, the cards, the
swap, the final call, or the game's end; with what each needs to explain itself (the kicks'
chances, the odds on a late down, whether to explain in full, the last down's cards)."""

from __future__ import annotations

from ...engine.actions import held_hand
from ...engine.card_model import Role
from ...engine.field import LAST_DOWN
from ...engine.state import GameState, Phase, SnapChoice
from ..screens.base import Host, Screen
from ..screens.decisions import CoinScreen, FinalCallScreen, GameOverScreen, SideScreen, SnapScreen
from ..screens.hands import SelectionScreen, SubstitutionScreen
from ..session import Session
from ..words.kicks import KickOption, field_goal_option, kick_summary, punt_option
from ..words.matchups import conversion_words, needed_now
from ..words.phrases import Names
from ..words.situation import outcome_words
from ..words.verbosity import Telling


def decision_screen(host: Host, session: Session, names: Names, telling: Telling,
                    in_series: bool, online: bool = False) -> Screen:
    """The screen for the decision the game waits on (the game over screen once it is over;
    `in_series`: a next game of a series follows; `online`: the game was reached from the
    lobby, which its end offers again)."""
    match = session.match
    assert match is not None
    decision, state = match.pending(), match.state
    if decision is None:
        assert state.outcome is not None
        return GameOverScreen(host, outcome_words(state.outcome, names), next_in_series=in_series,
                              watched=names.watching, online=online)
    role = decision.role
    if decision.phase is Phase.COIN_TOSS:
        return CoinScreen(host)
    if decision.phase is Phase.SIDE_CHOICE:
        return SideScreen(host)
    if decision.phase is Phase.SNAP_CHOICE and state.down is not None and \
            state.down.number == LAST_DOWN:
        return SnapScreen(host, kicks(state, names, telling), kick_summary(state),
                          full=session.first_time("snap", telling))
    assert role is not None
    if decision.phase in (Phase.SNAP_CHOICE, Phase.SELECTION):
        again = session.last_hands.get(role)
        teach = again is not None and not session.taught_again
        session.taught_again = session.taught_again or teach
        offered = kicks(state, names, telling) if decision.phase is Phase.SNAP_CHOICE else None
        return SelectionScreen(host, role, full=session.first_time("selection", telling),
                               again=again, teach_again=teach, kicks=offered,
                               teach_keys=session.until_done("check", telling),
                               teach_kicks=bool(offered) and session.first_time("kicks", telling),
                               on_check=lambda: session.did("check"))
    if decision.phase is Phase.SUBSTITUTION:
        return SubstitutionScreen(host, role, session.my_hand(decision.team),
                                  full=session.first_time("substitution", telling),
                                  teach_bring_in=session.until_done("bring_in", telling),
                                  on_bring_in=lambda: session.did("bring_in"))
    return FinalCallScreen(host, role, session.my_hand(decision.team),
                           full=session.first_time("final", telling),
                           odds=odds(state, names, role))


def odds(state: GameState, names: Names, role: Role) -> str:
    """On 3rd and 4th down: each of your calls' chance of making the line to gain."""
    you = names.you
    needed = needed_now(state)
    mine, theirs = held_hand(state, you), held_hand(state, you.other)
    if needed is None or mine is None or theirs is None:
        return ""
    return conversion_words(role, mine, theirs, needed)


def kicks(state: GameState, names: Names, telling: Telling) -> dict[SnapChoice, KickOption]:
    """The punt's landing chances, as the field goal's, unless the words are brief."""
    return {SnapChoice.PUNT: punt_option(state, names, not telling.brief),
            SnapChoice.FIELD_GOAL: field_goal_option(state, names)}
