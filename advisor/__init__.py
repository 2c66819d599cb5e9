"""GPU Advisor: which GPU for this ML job, and will it fit."""

from advisor.answer import Answer, Citation, NumberRef, ToolCall
from advisor.api import Advisor
from advisor.catalog import Catalog, get_gpu, get_model, list_gpus, list_models, load_catalog
from advisor.errors import (
    AdvisorError,
    AmbiguousGPU,
    AmbiguousModel,
    CatalogError,
    InvalidInput,
    UnknownGPU,
    UnknownModel,
)
from advisor.specs import GPU, Model, Price

__version__ = "0.1.0"

__all__ = [
    "GPU",
    "Advisor",
    "AdvisorError",
    "AmbiguousGPU",
    "AmbiguousModel",
    "Answer",
    "Catalog",
    "CatalogError",
    "Citation",
    "InvalidInput",
    "Model",
    "NumberRef",
    "Price",
    "ToolCall",
    "UnknownGPU",
    "UnknownModel",
    "__version__",
    "get_gpu",
    "get_model",
    "list_gpus",
    "list_models",
    "load_catalog",
]
