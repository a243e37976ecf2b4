// @ts-check
'use strict';

const { present } = require('./api');

/**
 * The job fields of the create and update actions, and the connector body they make (CONTRACTS
 * "Connector /v1": `title`, `externalId`, `address`, `notes`, `date`, `timeWindow {start, end}`,
 * `assigneeUsername`, `priority`, `placeId`, `contact {name, phone, email}`). Fields left empty are
 * not sent, so an update changes only what the Zap fills in. The service checks every value and
 * answers a 400 naming the field and the rule, which the Zap shows as it is.
 */

/**
 * @param {{titleRequired: boolean}} o
 * @returns {import('zapier-platform-core').PlainInputField[]}
 */
function jobInputFields(o) {
  return [
    { key: 'title', label: 'Title', required: o.titleRequired, helpText: 'What the job is, e.g. "Boiler service".' },
    {
      key: 'externalId',
      label: 'External ID',
      required: false,
      helpText:
        'Your own id for the job (an order number…), unique in the company. Creating a job with an external id that another job already has updates that job instead.',
    },
    { key: 'address', label: 'Address', required: false },
    { key: 'notes', label: 'Notes', type: 'text', required: false, helpText: "The dispatcher's notes for the worker." },
    { key: 'date', label: 'Date', required: false, placeholder: '2024-05-14', helpText: 'The day of the job, YYYY-MM-DD.' },
    { key: 'windowStart', label: 'Time Window Start', required: false, placeholder: '09:00', helpText: 'HH:mm, 24-hour.' },
    { key: 'windowEnd', label: 'Time Window End', required: false, placeholder: '11:30', helpText: 'HH:mm, 24-hour.' },
    {
      key: 'assigneeUsername',
      label: 'Assignee',
      required: false,
      dynamic: 'member_list.username.name',
      search: 'find_member.username',
      helpText: 'The username of the member who does the job.',
    },
    { key: 'priority', label: 'Priority', type: 'integer', required: false, helpText: '0 (lowest, the default) to 10.' },
    {
      key: 'placeId',
      label: 'Place',
      required: false,
      dynamic: 'place_list.id.name',
      helpText: 'A place of the company the job happens at.',
    },
    { key: 'contactName', label: 'Contact Name', required: false },
    { key: 'contactPhone', label: 'Contact Phone', required: false },
    { key: 'contactEmail', label: 'Contact Email', required: false },
  ];
}

/**
 * The connector body for the fields filled in.
 * @param {Record<string, any>} input `bundle.inputData`
 */
function jobBody(input) {
  const body = present({
    title: input.title,
    externalId: input.externalId,
    address: input.address,
    notes: input.notes,
    date: input.date,
    assigneeUsername: input.assigneeUsername,
    priority: input.priority,
    placeId: input.placeId,
  });
  const timeWindow = present({ start: input.windowStart, end: input.windowEnd });
  if (Object.keys(timeWindow).length) body.timeWindow = timeWindow;
  const contact = present({ name: input.contactName, phone: input.contactPhone, email: input.contactEmail });
  if (Object.keys(contact).length) body.contact = contact;
  return body;
}

module.exports = { jobBody, jobInputFields };
