from pydantic import Field

from .base_model import BaseModel


class Agents(BaseModel):
    agents: list["AgentsAgents"]


class AgentsAgents(BaseModel):
    agent_id: str = Field(alias="agentId")
    facts: int
    entities: int
    relations: int
    events: int


Agents.model_rebuild()
