// api.js: the one way pages talk to the JSON API.
// Same-origin fetch (the HttpOnly session cookie rides along); an answer of the form
// {"error": {"code", "message"}} becomes a thrown ApiError carrying the server's message.

export class ApiError extends Error {
  constructor(message, { status = 0, code = "network" } = {}) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
  }
}

export async function api(path, { method = "GET", body } = {}) {
  const init = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError("The server cannot be reached. Check your connection and try again.");
  }
  if (response.status === 204) return null;
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const error = data && data.error;
    if (error && error.message) {
      throw new ApiError(error.message, { status: response.status, code: error.code });
    }
    const detail = data && typeof data.detail === "string" ? data.detail : null;
    throw new ApiError(detail || `The request failed (${response.status}).`, {
      status: response.status,
      code: "http_" + response.status,
    });
  }
  return data;
}

export const get = (path) => api(path);
export const post = (path, body = {}) => api(path, { method: "POST", body });
export const del = (path) => api(path, { method: "DELETE" });
