"""Errors shared by every game."""
import numbers


class IllegalActionError(ValueError):
    """An action the mask refuses: names the action, the phase and the seat; the state is unchanged."""

    def __init__(self, action, phase: str, player: int, reason: str = "", name: str | None = None):
        self.action = action
        self.phase = phase
        self.player = player
        self.reason = reason
        text = f"{action}" if isinstance(action, numbers.Integral) and not isinstance(action, bool) else repr(action)
        label = text if name is None else f"{text} ({name})"
        msg = f"illegal action {label} in phase {phase!r} for player {player}"
        if reason:
            msg += f": {reason}"
        super().__init__(msg)
