from pydantic import Field

from .base_model import BaseModel


class Viewer(BaseModel):
    viewer: "ViewerViewer"


class ViewerViewer(BaseModel):
    admin: bool
    all_agents: bool = Field(alias="allAgents")
    agents: list[str]


Viewer.model_rebuild()
