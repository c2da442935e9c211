from typing import Optional

from pydantic import Field

from .base_model import BaseModel


class AgentPage(BaseModel):
    agent_page: "AgentPageAgentPage" = Field(alias="agentPage")


class AgentPageAgentPage(BaseModel):
    items: list["AgentPageAgentPageItems"]
    total_count: int = Field(alias="totalCount")
    has_next_page: bool = Field(alias="hasNextPage")
    end_cursor: Optional[str] = Field(alias="endCursor")


class AgentPageAgentPageItems(BaseModel):
    agent_id: str = Field(alias="agentId")
    facts: int
    entities: int
    relations: int
    events: int


AgentPage.model_rebuild()
AgentPageAgentPage.model_rebuild()
