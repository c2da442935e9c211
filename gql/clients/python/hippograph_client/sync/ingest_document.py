from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import ErrorCode


class IngestDocument(BaseModel):
    ingest_document: "IngestDocumentIngestDocument" = Field(alias="ingestDocument")


class IngestDocumentIngestDocument(BaseModel):
    document_id: Optional[str] = Field(alias="documentId")
    job_id: Optional[str] = Field(alias="jobId")
    created: bool
    errors: list["IngestDocumentIngestDocumentErrors"]


class IngestDocumentIngestDocumentErrors(BaseModel):
    code: ErrorCode
    message: str
    field: Optional[str]


IngestDocument.model_rebuild()
IngestDocumentIngestDocument.model_rebuild()
