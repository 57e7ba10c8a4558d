"""The LLM room (seed 001): an OpenAI-compatible client with structured outputs, the prompts,
intent extraction and drafting. The model proposes; the planner, verifiers and repair decide.

``openai`` is imported only when a call is made (it costs ~1 s), so nothing here slows a run
without ``--llm``."""
