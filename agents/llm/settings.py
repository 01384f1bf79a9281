"""What a model call needs to know: the server (CONVENTIONS §3) and per-role timeouts and budgets."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from core import config


@dataclass(frozen=True)
class RoleSettings:
    timeout: float
    max_tokens: int
    temperature: float


ROLE_DEFAULTS: dict[str, RoleSettings] = {
    "classifier": RoleSettings(timeout=20, max_tokens=300, temperature=0.0),
    "supervisor": RoleSettings(timeout=30, max_tokens=500, temperature=0.0),
    "generator": RoleSettings(timeout=90, max_tokens=2000, temperature=0.3),
    "reviewer": RoleSettings(timeout=60, max_tokens=1000, temperature=0.0),
    "summarizer": RoleSettings(timeout=45, max_tokens=600, temperature=0.2),
    "admin": RoleSettings(timeout=45, max_tokens=1000, temperature=0.0),
}


@dataclass(frozen=True)
class Settings:
    """Everything a model call needs; ``from_env`` reads CONVENTIONS §3 plus optional LLM_* knobs."""

    model: str = "gpt-4o-mini"
    base_url: str | None = None
    api_key: str | None = None
    roles: dict[str, RoleSettings] = field(default_factory=lambda: dict(ROLE_DEFAULTS))
    attempts: int = 3  # tries per call, the first included
    backoff_seconds: float = 1.0  # first wait; doubles each retry
    backoff_max: float = 20.0
    retry_after_cap: float = 20.0  # a server asking for longer is not waited for that long
    probe_timeout: float = 30.0  # the capability probe's whole budget (0: don't probe)
    answer_seconds: float = 120.0  # wall clock for one streamed answer before it is abandoned

    @property
    def offline(self) -> bool:
        return not (self.api_key or self.base_url)

    def role(self, name: str) -> RoleSettings:
        return self.roles.get(name) or self.roles["generator"]

    @classmethod
    def from_env(cls) -> Settings:
        api_key = config.get("OPENAI_API_KEY")
        base_url = config.get("OPENAI_BASE_URL")
        roles = dict(ROLE_DEFAULTS)
        timeout = config.get("LLM_TIMEOUT")
        if timeout:  # slow local servers need more than the defaults
            roles = {name: replace(role, timeout=timeout) for name, role in roles.items()}
        return cls(
            model=config.get("LLM_MODEL"),
            base_url=base_url,
            # Local servers (Ollama, vLLM, llama.cpp) ignore the key, but the client insists on one.
            api_key=api_key or ("not-needed" if base_url else None),
            roles=roles,
            attempts=config.get("LLM_RETRY_ATTEMPTS"),
            backoff_seconds=config.get("LLM_BACKOFF_SECONDS"),
            retry_after_cap=config.get("LLM_RETRY_AFTER_CAP"),
            probe_timeout=config.get("LLM_PROBE_TIMEOUT"),
            answer_seconds=config.get("LLM_ANSWER_SECONDS"),
        )
